package dev.operatorstarter.autoconfigure.health;

import dev.operatorstarter.autoconfigure.OperatorStatus;
import dev.operatorstarter.autoconfigure.OperatorStatus.MemberStatus;
import dev.operatorstarter.autoconfigure.OperatorStatus.ShardingStatus;
import dev.operatorstarter.sharding.Membership;
import java.util.Map;
import java.util.TreeMap;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;

/**
 * This replica's membership of the ring. DOWN only when its member Lease was taken (phase
 * {@code TAINTED}: the ring may have given its objects to others, and the application is closing
 * to join again as a new member); joining, between terms or not assigning is healthy. Details:
 * the ring, this shard, its Lease and phase, whether it assigns, and the members by state as this
 * replica sees them; on the replica that assigns, also the objects waiting for a drain or a member.
 */
public final class ShardingHealthIndicator implements HealthIndicator {

    private final OperatorStatus status;

    public ShardingHealthIndicator(OperatorStatus status) {
        this.status = status;
    }

    @Override
    public Health health() {
        ShardingStatus sharding = status.sharding();
        if (!sharding.enabled()) {
            return Health.unknown().withDetail("enabled", false).build();
        }
        Map<String, Integer> byState = new TreeMap<>();
        for (MemberStatus member : sharding.members()) {
            byState.merge(member.state(), 1, Integer::sum);
        }
        Health.Builder health = Membership.Phase.TAINTED.name().equals(sharding.phase()) ? Health.down() : Health.up();
        health.withDetail("ring", sharding.ring()).withDetail("shard", sharding.shard())
                .withDetail("lease", sharding.lease()).withDetail("phase", sharding.phase())
                .withDetail("assigner", sharding.assigner()).withDetail("controllers", sharding.controllers())
                .withDetail("members", byState);
        if (sharding.assigner()) {
            health.withDetail("pendingDrains", sharding.pendingDrains()).withDetail("unassigned", sharding.unassigned());
            if (sharding.oldestPendingDrainSeconds() != null) {
                health.withDetail("oldestPendingDrainSeconds", sharding.oldestPendingDrainSeconds());
            }
        }
        return health.build();
    }
}
