package dev.operatorstarter.client.rest;

/**
 * A request to the API server failed: the connection, the TLS handshake, the credentials, or a
 * response that could not be decoded. Answers from the server with an error status are
 * {@link ApiException}s. Messages name the method and URL and never hold credentials.
 */
public class KubernetesClientException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public KubernetesClientException(String message) {
        super(message);
    }

    public KubernetesClientException(String message, Throwable cause) {
        super(message, cause);
    }
}
