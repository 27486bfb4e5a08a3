package dev.operatorstarter.client.rest;

/**
 * A response, or one event of a watch, was larger than the client reads into memory
 * ({@link ClientOptions#maxResponseBytes()}, {@link ClientOptions#maxListResponseBytes()},
 * {@link ClientOptions#maxWatchEventBytes()}). The message names the request, the limit and the
 * option that sets it. Asking again gets the same answer while the object stays that large, so the
 * client does not retry it, and a reflector backs off instead of reopening its watch at once.
 */
public class ResponseTooLargeException extends KubernetesClientException {

    private static final long serialVersionUID = 1L;

    public ResponseTooLargeException(String message) {
        super(message);
    }

    public ResponseTooLargeException(String message, Throwable cause) {
        super(message, cause);
    }
}
