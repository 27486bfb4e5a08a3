package dev.operatorstarter.autoconfigure.endpoint;

import dev.operatorstarter.autoconfigure.OperatorStatus;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;

/**
 * The {@code operator} actuator endpoint ({@code /actuator/operator} once exposed with
 * {@code management.endpoints.web.exposure.include=operator}): controllers with their queue
 * depths, leadership, and every informer's state. Reads only local state.
 */
@Endpoint(id = "operator")
public class OperatorEndpoint {

    private final OperatorStatus status;

    public OperatorEndpoint(OperatorStatus status) {
        this.status = status;
    }

    @ReadOperation
    public OperatorStatus.Snapshot operator() {
        return status.snapshot();
    }
}
