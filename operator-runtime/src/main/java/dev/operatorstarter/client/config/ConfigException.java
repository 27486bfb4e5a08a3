package dev.operatorstarter.client.config;

import java.util.List;

/**
 * A client configuration could not be read: a missing or malformed kubeconfig, an unknown
 * context, an unreadable certificate or key, an exec plugin that failed. The message names the
 * file, the context and the field. Three cases that callers (such as Spring Boot failure
 * analyzers) tell apart have a subclass of their own: {@link NotFound}, {@link UnknownContext}
 * and {@link UnreadableCertificate}.
 */
public class ConfigException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public ConfigException(String message) {
        super(message);
    }

    public ConfigException(String message, Throwable cause) {
        super(message, cause);
    }

    /** No configuration at all: no kubeconfig file and not running in a pod. */
    public static final class NotFound extends ConfigException {

        private static final long serialVersionUID = 1L;

        public NotFound(String message) {
            super(message);
        }
    }

    /** The context asked for (or the current context) is not defined in the kubeconfig. */
    public static final class UnknownContext extends ConfigException {

        private static final long serialVersionUID = 1L;

        private final String context;
        private final List<String> available;

        public UnknownContext(String message, String context, List<String> available) {
            super(message);
            this.context = context;
            this.available = List.copyOf(available);
        }

        /** The context that was asked for. */
        public String context() {
            return context;
        }

        /** The contexts the kubeconfig defines. */
        public List<String> available() {
            return available;
        }
    }

    /**
     * A certificate authority, client certificate or client key could not be read: the file is
     * missing or unreadable, the data is not valid base64 or PEM, or the key does not match.
     */
    public static final class UnreadableCertificate extends ConfigException {

        private static final long serialVersionUID = 1L;

        public UnreadableCertificate(String message) {
            super(message);
        }

        public UnreadableCertificate(String message, Throwable cause) {
            super(message, cause);
        }
    }
}
