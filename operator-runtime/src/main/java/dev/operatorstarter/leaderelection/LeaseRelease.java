package dev.operatorstarter.leaderelection;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Gives a lease up on a graceful stop, so that another candidate takes over at once (client-go's ReleaseOnCancel). */
final class LeaseRelease {

    private static final Logger log = LoggerFactory.getLogger(LeaderElector.class);

    private LeaseRelease() {
    }

    /**
     * Writes an empty holder if {@code lock}'s candidate still holds it, each call within the retry
     * period; a failure is logged (the others take over when the lease expires).
     */
    static void release(ResourceLock lock, LeaderElectionConfig config) {
        try {
            Optional<ResourceLock.Observed> current = lock.get(config.timing().retryPeriod());
            if (current.isEmpty() || !current.get().record().holderIdentity().equals(lock.identity())) {
                return;
            }
            Instant now = config.timeSource().now();
            LeaderElectionRecord released = new LeaderElectionRecord("", Duration.ofSeconds(1), now, now,
                    current.get().record().leaderTransitions());
            lock.update(released, current.get().version(), config.timing().retryPeriod());
            log.info("{}: released {}", config.name(), lock.describe());
        } catch (RuntimeException e) {
            log.warn("{}: cannot release {}: {}; others take over when the lease expires", config.name(),
                    lock.describe(), e.getMessage());
        }
    }
}
