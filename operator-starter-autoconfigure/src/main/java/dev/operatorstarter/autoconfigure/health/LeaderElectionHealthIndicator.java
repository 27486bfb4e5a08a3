package dev.operatorstarter.autoconfigure.health;

import dev.operatorstarter.autoconfigure.OperatorStatus;
import dev.operatorstarter.autoconfigure.OperatorStatus.LeadershipStatus;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;

/**
 * Always UP (a follower is healthy: it keeps warm caches and waits for the lease); the details
 * say whether this replica leads, who holds the lease and which lease it is.
 */
public final class LeaderElectionHealthIndicator implements HealthIndicator {

    private final OperatorStatus status;

    public LeaderElectionHealthIndicator(OperatorStatus status) {
        this.status = status;
    }

    @Override
    public Health health() {
        LeadershipStatus leadership = status.leaderElection();
        return Health.up().withDetail("enabled", leadership.enabled()).withDetail("leader", leadership.leader())
                .withDetail("holder", leadership.holder()).withDetail("identity", leadership.identity())
                .withDetail("lease", leadership.lease()).build();
    }
}
