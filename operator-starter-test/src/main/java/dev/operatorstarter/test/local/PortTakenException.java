package dev.operatorstarter.test.local;

import dev.operatorstarter.test.ClusterStartException;

/** A server could not bind a port that was free a moment earlier; the start is tried again on new ports. */
final class PortTakenException extends ClusterStartException {

    private static final long serialVersionUID = 1L;

    PortTakenException(String message) {
        super(message);
    }
}
