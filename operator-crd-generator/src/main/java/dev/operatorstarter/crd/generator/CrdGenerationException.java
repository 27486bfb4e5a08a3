package dev.operatorstarter.crd.generator;

/**
 * A custom resource class that cannot become a CRD: the message names the class, the property
 * path where the generator stopped (for example {@code spec.items[].name}) and what to change.
 */
public class CrdGenerationException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public CrdGenerationException(String message) {
        super(message);
    }

    public CrdGenerationException(String message, Throwable cause) {
        super(message, cause);
    }
}
