package dev.operatorstarter.leaderelection;

import dev.operatorstarter.client.rest.ApiErrors;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Campaigns for a lock and leads while it holds it (client-go's {@code LeaderElector}).
 *
 * <p>Guarantees:
 * <ul>
 *   <li>{@link LeaderCallbacks#onStartedLeading} runs only after this candidate's write to the
 *       lock succeeded.</li>
 *   <li>Expiry is judged on this process's monotonic clock from the moment it <em>saw</em> the
 *       record change, never from the timestamps in the record, so clock skew between nodes
 *       does not matter.</li>
 *   <li>The leader gives up when it could not renew for the renew deadline, or at once when it
 *       sees another holder; {@link Leadership#isValid()} turns false by itself when renewals
 *       stop, before another candidate can have waited out the (longer) lease duration.</li>
 *   <li>After losing, the elector campaigns again: the same process can be elected again
 *       without a restart. It never exits the JVM.</li>
 *   <li>{@link #close()} ends the term, releases the lease when configured (another candidate
 *       takes over at its next attempt), and stops campaigning.</li>
 * </ul>
 *
 * <p>What it does not guarantee: that the leader's work has stopped when another leader starts,
 * if that work ignores {@link Leadership#isValid()}; that the API server's view of time (e.g. a
 * paused etcd) agrees with the candidates'. The thread running {@code onStartedLeading} is
 * interrupted when its term ends.
 */
public final class LeaderElector implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(LeaderElector.class);

    /** What one attempt to acquire or renew found. */
    enum Attempt {
        /** This candidate holds the lock now (written just now). */
        HELD,
        /** Another candidate holds an unexpired lease. */
        HELD_BY_OTHER,
        /** Reading or writing the lock failed (conflict, network, forbidden). */
        FAILED
    }

    private final LeaderElectionConfig config;
    private final ResourceLock lock;
    private final CountDownLatch closing = new CountDownLatch(1);
    private final Object lifecycle = new Object();
    private @Nullable Thread thread;
    private volatile @Nullable Term term;
    private volatile String leader = "";
    private ResourceLock.@Nullable Observed observed;
    private long observedAtNanos;
    /** When the last attempt began: a successful write counts from here, never from its response. */
    private long attemptStartedNanos;
    /** When another holder's lease, as observed, runs out (valid after a HELD_BY_OTHER attempt). */
    private long otherExpiresNanos;

    public LeaderElector(LeaderElectionConfig config) {
        this.config = config;
        this.lock = config.lock();
    }

    /** Starts campaigning on a thread of the configured factory. */
    public void start() {
        synchronized (lifecycle) {
            if (thread != null) {
                throw new IllegalStateException(config.name() + ": the elector was started already");
            }
            thread = config.threadFactory().newThread(this::run);
            thread.setName("leader-elector-" + config.name());
            thread.start();
        }
    }

    /** True while this candidate leads and its term is valid (see {@link Leadership#isValid()}). */
    public boolean isLeader() {
        Term current = term;
        return current != null && current.isValid();
    }

    /** The holder the lock showed last ("" when released or not read yet). */
    public String leader() {
        return leader;
    }

    /**
     * Stops campaigning; if leading, ends the term and (when configured) releases the lease.
     * Waits up to the renew deadline for that to finish.
     */
    @Override
    public void close() {
        closing.countDown();
        Thread running;
        synchronized (lifecycle) {
            running = thread;
        }
        if (running != null && running != Thread.currentThread()) {
            try {
                running.join(config.renewDeadline().toMillis() + config.retryPeriod().toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private boolean isClosing() {
        return closing.getCount() == 0;
    }

    private void run() {
        log.info("{}: campaigning as {} for {}", config.name(), lock.identity(), lock.describe());
        while (!isClosing()) {
            if (campaign()) {
                lead();
            }
        }
        log.info("{}: stopped campaigning", config.name());
    }

    /** Tries until this candidate holds the lock (true) or the elector closes (false). */
    private boolean campaign() {
        while (!isClosing()) {
            Attempt attempt = tryAcquireOrRenew();
            if (attempt == Attempt.HELD) {
                return true;
            }
            long period = config.retryPeriod().toNanos();
            long wait = period + (long) (ThreadLocalRandom.current().nextDouble() * (LeaderElectionConfig.JITTER - 1)
                    * period);
            if (attempt == Attempt.HELD_BY_OTHER) {
                // Try again right when the observed lease runs out, not up to a retry period later.
                long untilExpiry = otherExpiresNanos - config.ticker().getAsLong();
                wait = Math.max(TimeUnit.MILLISECONDS.toNanos(1), Math.min(wait, untilExpiry + 1));
            }
            sleep(wait);
        }
        return false;
    }

    private void lead() {
        // The term counts from before the winning request was sent: others count from when they
        // saw its result, which is later, so this side of the lease always ends first.
        Term current = new Term(attemptStartedNanos);
        term = current;
        config.metrics().leading(config.name(), true);
        log.info("{}: {} became the leader", config.name(), lock.identity());
        Thread work = config.threadFactory().newThread(() -> {
            try {
                config.callbacks().onStartedLeading(current);
            } catch (RuntimeException e) {
                log.error("{}: onStartedLeading failed", config.name(), e);
            }
        });
        work.setName("leader-" + config.name());
        work.start();
        String reason = "the elector is closing";
        while (!isClosing()) {
            if (current.isValid()) {
                sleep(config.retryPeriod().toNanos());
            } // else the last write was slow: renew at once so that the term becomes valid again
            if (isClosing()) {
                break;
            }
            Attempt attempt = tryAcquireOrRenew();
            long now = config.ticker().getAsLong();
            if (attempt == Attempt.HELD) {
                current.renewed(attemptStartedNanos);
            } else if (attempt == Attempt.HELD_BY_OTHER) {
                reason = "the lock shows another holder (" + leader + ")";
                break;
            } else if (now - current.lastRenewNanos >= config.renewDeadline().toNanos()) {
                reason = "no renewal succeeded for the renew deadline of " + config.renewDeadline();
                break;
            }
        }
        current.end();
        work.interrupt();
        config.metrics().leading(config.name(), false);
        if (isClosing() && config.releaseOnClose()) {
            release();
        }
        log.info("{}: {} stopped leading: {}", config.name(), lock.identity(), reason);
        try {
            config.callbacks().onStoppedLeading();
        } catch (RuntimeException e) {
            log.error("{}: onStoppedLeading failed", config.name(), e);
        }
    }

    /** One attempt to take or keep the lock (client-go's {@code tryAcquireOrRenew}). */
    Attempt tryAcquireOrRenew() {
        Instant now = config.clock().instant();
        long nowNanos = config.ticker().getAsLong();
        attemptStartedNanos = nowNanos;
        Optional<ResourceLock.Observed> current;
        try {
            current = lock.get();
        } catch (RuntimeException e) {
            log.warn("{}: cannot read {}: {}", config.name(), lock.describe(), e.getMessage());
            return Attempt.FAILED;
        }
        if (current.isEmpty()) {
            LeaderElectionRecord mine = new LeaderElectionRecord(lock.identity(), config.leaseDuration(), now, now, 0);
            try {
                lock.create(mine);
            } catch (RuntimeException e) {
                writeFailed("create", e);
                return Attempt.FAILED;
            }
            observe(new ResourceLock.Observed(mine, ""), nowNanos);
            return Attempt.HELD;
        }
        ResourceLock.Observed seen = current.get();
        if (observed == null || !seen.equals(observed)) {
            observe(seen, nowNanos);
        }
        LeaderElectionRecord record = seen.record();
        boolean mine = record.holderIdentity().equals(lock.identity());
        if (!record.isReleased() && !mine && nowNanos - observedAtNanos < record.leaseDuration().toNanos()) {
            otherExpiresNanos = observedAtNanos + record.leaseDuration().toNanos();
            return Attempt.HELD_BY_OTHER;
        }
        LeaderElectionRecord next = mine
                ? new LeaderElectionRecord(lock.identity(), config.leaseDuration(), record.acquireTime(), now,
                        record.leaderTransitions())
                : new LeaderElectionRecord(lock.identity(), config.leaseDuration(), now, now,
                        record.leaderTransitions() + 1);
        try {
            lock.update(next, seen.version());
        } catch (RuntimeException e) {
            writeFailed("update", e);
            return Attempt.FAILED;
        }
        observe(new ResourceLock.Observed(next, seen.version()), nowNanos);
        return Attempt.HELD;
    }

    /**
     * Losing a race for the lock (another candidate created or changed it first) is routine and
     * logged at DEBUG; any other failure, such as RBAC refusing the write, is a WARN, so a missing
     * permission does not leave the log silent after "campaigning".
     */
    private void writeFailed(String verb, RuntimeException e) {
        if (ApiErrors.isConflict(e) || ApiErrors.isAlreadyExists(e)) {
            log.debug("{}: cannot {} {}: {}", config.name(), verb, lock.describe(), e.getMessage());
        } else {
            log.warn("{}: cannot {} {}: {}", config.name(), verb, lock.describe(), e.getMessage());
        }
    }

    private void observe(ResourceLock.Observed seen, long nowNanos) {
        observed = seen;
        observedAtNanos = nowNanos;
        String holder = seen.record().holderIdentity();
        if (!holder.equals(leader)) {
            leader = holder;
            try {
                config.callbacks().onNewLeader(holder);
            } catch (RuntimeException e) {
                log.error("{}: onNewLeader failed", config.name(), e);
            }
        }
    }

    /** Writes an empty holder if this candidate still holds the lock. */
    private void release() {
        try {
            Optional<ResourceLock.Observed> current = lock.get();
            if (current.isEmpty() || !current.get().record().holderIdentity().equals(lock.identity())) {
                return;
            }
            Instant now = config.clock().instant();
            LeaderElectionRecord released = new LeaderElectionRecord("", Duration.ofSeconds(1), now, now,
                    current.get().record().leaderTransitions());
            lock.update(released, current.get().version());
            observe(new ResourceLock.Observed(released, current.get().version()), config.ticker().getAsLong());
            log.info("{}: released {}", config.name(), lock.describe());
        } catch (RuntimeException e) {
            log.warn("{}: cannot release {}: {}; others take over when the lease expires", config.name(),
                    lock.describe(), e.getMessage());
        }
    }

    private void sleep(long nanos) {
        try {
            closing.await(nanos, TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            closing.countDown();
        }
    }

    /** One term of leadership. */
    private final class Term implements Leadership {
        private final CountDownLatch ended = new CountDownLatch(1);
        private volatile long lastRenewNanos;

        Term(long acquiredNanos) {
            this.lastRenewNanos = acquiredNanos;
        }

        void renewed(long nanos) {
            lastRenewNanos = nanos;
        }

        void end() {
            ended.countDown();
        }

        @Override
        public boolean isValid() {
            return ended.getCount() > 0
                    && config.ticker().getAsLong() - lastRenewNanos < config.renewDeadline().toNanos();
        }

        @Override
        public void awaitEnd() throws InterruptedException {
            ended.await();
        }

        @Override
        public boolean awaitEnd(Duration timeout) throws InterruptedException {
            return ended.await(timeout.toNanos(), TimeUnit.NANOSECONDS);
        }
    }
}
