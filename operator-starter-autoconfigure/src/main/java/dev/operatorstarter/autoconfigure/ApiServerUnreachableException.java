package dev.operatorstarter.autoconfigure;

/**
 * The operator could not talk to the API server at start-up: it did not answer (refused, unknown
 * host, no answer before the deadline, a TLS failure) or refused the credentials (401). Found by
 * the start-up permission check within seconds, before any informer starts.
 */
public class ApiServerUnreachableException extends RuntimeException {

    private final String server;
    private final String source;
    private final boolean unauthenticated;

    /**
     * @param server the API server's address, without credentials
     * @param source where the client's configuration came from (kubeconfig and context, in-cluster)
     * @param unauthenticated whether the server answered 401 rather than not answering
     * @param detail what happened
     */
    public ApiServerUnreachableException(String server, String source, boolean unauthenticated, String detail,
            Throwable cause) {
        super((unauthenticated ? "The API server at " + server + " refused the credentials of " + source + ": "
                : "Cannot reach the API server at " + server + " (from " + source + "): ") + detail, cause);
        this.server = server;
        this.source = source;
        this.unauthenticated = unauthenticated;
    }

    public String server() {
        return server;
    }

    public String source() {
        return source;
    }

    public boolean unauthenticated() {
        return unauthenticated;
    }
}
