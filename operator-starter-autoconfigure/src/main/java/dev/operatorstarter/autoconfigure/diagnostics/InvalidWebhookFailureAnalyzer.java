package dev.operatorstarter.autoconfigure.diagnostics;

import dev.operatorstarter.autoconfigure.webhook.InvalidWebhookException;
import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * The webhook server cannot start: a webhook bean that cannot be served, settings that do not fit
 * together, a certificate that cannot be read or made, a port that cannot be bound. The
 * exception's message names the bean or property and the fix.
 */
final class InvalidWebhookFailureAnalyzer extends AbstractFailureAnalyzer<InvalidWebhookException> {

    @Override
    protected FailureAnalysis analyze(Throwable rootFailure, InvalidWebhookException cause) {
        return new FailureAnalysis("The webhook server (operator.webhook.enabled=true) cannot start: "
                + cause.getMessage() + ".", "Fix the webhook bean or the operator.webhook.* property named above "
                + "(docs/webhooks.md describes both), or set operator.webhook.enabled=false.", cause);
    }
}
