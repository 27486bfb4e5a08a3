package dev.operatorstarter.test;

/**
 * A test cluster could not be started or reached. The message says which step failed (building a
 * binary, starting a process, waiting for readiness, reading a kubeconfig) and, for a process that
 * failed, carries the last lines of its log.
 */
public class ClusterStartException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public ClusterStartException(String message) {
        super(message);
    }

    public ClusterStartException(String message, Throwable cause) {
        super(message, cause);
    }
}
