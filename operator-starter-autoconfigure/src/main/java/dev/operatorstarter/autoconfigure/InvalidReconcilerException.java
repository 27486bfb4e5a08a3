package dev.operatorstarter.autoconfigure;

import org.springframework.beans.factory.BeanDefinitionStoreException;

/**
 * A {@link Reconciler} bean that cannot become a controller, found while the bean definitions are
 * read (before any bean exists): what is wrong with which bean, and how to fix it. Start-up fails
 * with it, and a failure analyzer prints the problem and the fix instead of a stack trace.
 */
public final class InvalidReconcilerException extends BeanDefinitionStoreException {

    private static final long serialVersionUID = 1L;

    private final String beanName;
    private final String beanType;
    private final String problem;
    private final String fix;

    /**
     * @param beanName the bean carrying {@code @Reconciler}
     * @param beanType its type, as far as the bean definition tells ("" when unknown)
     * @param problem what is wrong, for example "does not implement ReconcileHandler"
     * @param fix what to do about it, for example "implement ReconcileHandler<Widget>"
     */
    public InvalidReconcilerException(String beanName, String beanType, String problem, String fix) {
        super("@Reconciler bean '" + beanName + "'" + (beanType.isEmpty() ? "" : " (" + beanType + ")") + " "
                + problem + "; " + fix);
        this.beanName = beanName;
        this.beanType = beanType;
        this.problem = problem;
        this.fix = fix;
    }

    @Override
    public String getBeanName() {
        return beanName;
    }

    /** The bean's type as the bean definition tells it; "" when unknown. */
    public String beanType() {
        return beanType;
    }

    /** What is wrong with the bean. */
    public String problem() {
        return problem;
    }

    /** What to do about it. */
    public String fix() {
        return fix;
    }
}
