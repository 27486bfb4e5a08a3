package dev.operatorstarter.autoconfigure.health;

import dev.operatorstarter.manager.ControllerStatus;
import dev.operatorstarter.autoconfigure.OperatorStatus;
import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;

/**
 * DOWN when this replica should run its controllers (it leads, or there is no election) and one
 * of them failed to start, which a restart may cure; UP otherwise, followers included. Details
 * per controller: running, queue depth, start error.
 */
public final class ControllersHealthIndicator implements HealthIndicator {

    private final OperatorStatus status;

    public ControllersHealthIndicator(OperatorStatus status) {
        this.status = status;
    }

    @Override
    public Health health() {
        boolean active = status.controllersActive();
        boolean up = true;
        Map<String, Object> details = new LinkedHashMap<>();
        for (ControllerStatus controller : status.controllers()) {
            Map<String, Object> detail = new LinkedHashMap<>();
            detail.put("resource", controller.resource());
            detail.put("running", controller.running());
            detail.put("queueDepth", controller.queueDepth());
            if (controller.startError() != null) {
                detail.put("startError", controller.startError());
                up &= !active;
            }
            details.put(controller.name(), detail);
        }
        return (up ? Health.up() : Health.down()).withDetail("active", active).withDetails(details).build();
    }
}
