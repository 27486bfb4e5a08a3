package dev.operatorstarter.client.pod;

import dev.operatorstarter.client.rest.KubernetesClientException;

/**
 * An exec, attach or port-forward session failed after it was opened: the server reported a
 * failure other than an exit code (a container that cannot run the command), the connection ended
 * without an answer, the answer was malformed, or the session outlived its time limit. The message
 * names the verb, the Pod and its namespace, and the container when one was named.
 */
public class ExecException extends KubernetesClientException {

    private static final long serialVersionUID = 1L;

    public ExecException(String message) {
        super(message);
    }

    public ExecException(String message, Throwable cause) {
        super(message, cause);
    }
}
