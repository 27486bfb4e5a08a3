package dev.operatorstarter.cache;

/**
 * Why a {@link Reflector} step failed; the subclass names the step, the cause is the client's
 * error (an {@code ApiException} for a refusal such as 403, a {@code KubernetesClientException}
 * for transport and decoding failures). The reflector never gives up: it tries again, at once
 * after a watch that had opened was cut, after a backoff otherwise (see {@link ReflectorState#next}),
 * and its {@link ReflectorOptions#errorHandler() error handler} is told.
 */
public abstract sealed class ReflectorException extends RuntimeException {

    private final String resource;

    ReflectorException(String resource, String message, Throwable cause) {
        super(resource + ": " + message, cause);
        this.resource = resource;
    }

    /** The reflector's name: the resource, its group and namespace. */
    public String resource() {
        return resource;
    }

    /** The list (or the streaming list) failed. */
    public static final class ListFailed extends ReflectorException {
        public ListFailed(String resource, String message, Throwable cause) {
            super(resource, message, cause);
        }
    }

    /** The watch failed, was refused, or was cut mid-stream; the message names the version it started from. */
    public static final class WatchFailed extends ReflectorException {
        public WatchFailed(String resource, String message, Throwable cause) {
            super(resource, message, cause);
        }
    }

    /** The watch delivered nothing, not even a bookmark, for longer than the stall timeout. */
    public static final class WatchStalled extends ReflectorException {
        public WatchStalled(String resource, String message, Throwable cause) {
            super(resource, message, cause);
        }
    }
}
