package dev.operatorstarter.client.config;

/**
 * A client configuration could not be read: a missing or malformed kubeconfig, an unknown
 * context, an unreadable certificate or key, an exec plugin that failed. The message names the
 * file, the context and the field.
 */
public class ConfigException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public ConfigException(String message) {
        super(message);
    }

    public ConfigException(String message, Throwable cause) {
        super(message, cause);
    }
}
