package dev.operatorstarter.autoconfigure.webhook;

/**
 * A webhook bean ({@link AdmissionWebhook}, {@link ConversionWebhook}) that cannot be served, or
 * webhook settings that do not fit together: what is wrong, with which bean or property, and how
 * to fix it. Start-up fails with it.
 */
public final class InvalidWebhookException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public InvalidWebhookException(String message) {
        super(message);
    }

    public InvalidWebhookException(String message, Throwable cause) {
        super(message, cause);
    }
}
