package dev.operatorstarter.autoconfigure.health;

import dev.operatorstarter.manager.ControllerStatus;
import dev.operatorstarter.autoconfigure.OperatorStatus;
import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;

/**
 * DOWN when this replica should run one of its controllers and it failed to start, which a restart
 * may cure; UP otherwise, followers included. A controller should run while this replica leads (or
 * there is no election), a sharded one while it is a member of the ring in a term of its own Lease.
 * Details per controller: running, queue depth, sharded, start error.
 */
public final class ControllersHealthIndicator implements HealthIndicator {

    private final OperatorStatus status;

    public ControllersHealthIndicator(OperatorStatus status) {
        this.status = status;
    }

    @Override
    public Health health() {
        boolean active = status.controllersActive();
        boolean member = status.shardActive();
        boolean up = true;
        boolean anySharded = false;
        Map<String, Object> details = new LinkedHashMap<>();
        for (ControllerStatus controller : status.controllers()) {
            anySharded |= controller.sharded();
            Map<String, Object> detail = new LinkedHashMap<>();
            detail.put("resource", controller.resource());
            detail.put("running", controller.running());
            detail.put("queueDepth", controller.queueDepth());
            if (controller.sharded()) {
                detail.put("sharded", true);
            }
            if (controller.startError() != null) {
                detail.put("startError", controller.startError());
                up &= !(controller.sharded() ? member : active);
            }
            details.put(controller.name(), detail);
        }
        Health.Builder health = (up ? Health.up() : Health.down()).withDetail("active", active);
        if (anySharded) {
            health.withDetail("member", member);
        }
        return health.withDetails(details).build();
    }
}
