package dev.operatorstarter.autoconfigure.diagnostics;

import dev.operatorstarter.autoconfigure.InvalidReconcilerException;
import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * A {@code @Reconciler} bean cannot become a controller (it does not implement
 * {@code ReconcileHandler}, its resource cannot be inferred, a mapper's resource cannot be, ...):
 * names the bean, its type and the fix.
 */
final class InvalidReconcilerFailureAnalyzer extends AbstractFailureAnalyzer<InvalidReconcilerException> {

    @Override
    protected FailureAnalysis analyze(Throwable rootFailure, InvalidReconcilerException cause) {
        String type = cause.beanType().isEmpty() ? "" : " (" + cause.beanType() + ")";
        return new FailureAnalysis("The @Reconciler bean '" + cause.getBeanName() + "'" + type + " "
                + cause.problem() + ".", capitalised(cause.fix()) + ".", cause);
    }

    private static String capitalised(String text) {
        return text.isEmpty() ? text : Character.toUpperCase(text.charAt(0)) + text.substring(1);
    }
}
