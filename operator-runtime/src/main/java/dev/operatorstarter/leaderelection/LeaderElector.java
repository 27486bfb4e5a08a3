package dev.operatorstarter.leaderelection;

import dev.operatorstarter.client.rest.ApiErrors;
import dev.operatorstarter.internal.StopSignal;
import dev.operatorstarter.time.TimeSource;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
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
 *   <li>A term ends no later than the renew deadline after its last successful renewal, whatever
 *       the elector's thread is doing (a request to the API server may hang): a watchdog thread
 *       ends it then, and {@link Leadership#isValid()} turns false by itself at that moment, before
 *       another candidate can have waited out the (longer) lease duration. The leader also gives
 *       up at once when it sees another holder.</li>
 *   <li>Each request to the lock is a single attempt with a deadline ({@link ResourceLock}): while
 *       leading, the time left in the term; while following, the renew deadline. Requests are never
 *       retried by the client and never queue behind its rate limiter.</li>
 *   <li>After losing, the elector campaigns again: the same process can be elected again
 *       without a restart. It never exits the JVM.</li>
 *   <li>{@link #close()} ends the term, releases the lease when configured (another candidate
 *       takes over at its next attempt), and stops campaigning; {@link #abandon()} does the
 *       same without the release (others take over once the lease expires). From either on, the
 *       elector sends no write to the lock (a request already in flight may still land) and
 *       starts no term.</li>
 * </ul>
 *
 * <p>What it does not guarantee: that the leader's work has stopped when another leader starts,
 * if that work ignores {@link Leadership#isValid()}; that the API server's view of time (e.g. a
 * paused etcd) agrees with the candidates'. The thread running {@code onStartedLeading} is
 * interrupted when its term ends.
 *
 * <p>The deadline rules live in {@link ElectorState#next}, unit-tested on fake time. Every time the
 * elector judges or waits for comes from {@link LeaderElectionConfig#timeSource()}, so a fake time
 * source drives it; only {@link #close()}'s bound on waiting for the elector's thread and
 * {@link Leadership#awaitEnd(Duration)} are real time.
 */
public final class LeaderElector implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(LeaderElector.class);

    /** What one attempt to acquire or renew found. */
    enum Attempt {
        /** This candidate holds the lock now (written just now). */
        HELD,
        /** Another candidate holds an unexpired lease. */
        HELD_BY_OTHER,
        /** Reading or writing the lock failed (conflict, network, forbidden, deadline). */
        FAILED
    }

    private final LeaderElectionConfig config;
    private final ResourceLock lock;
    /** Raised by {@link #close()} (or an interrupt of the elector's thread); ends the wait between attempts. */
    private final StopSignal closing = new StopSignal();
    private final Object lifecycle = new Object();
    /** Guards {@link #state} and {@link #term}; the watchdog waits on {@link #changed}. */
    private final ReentrantLock monitor = new ReentrantLock();
    private final Condition changed = monitor.newCondition();
    private @Nullable Thread thread;
    private @Nullable Thread watchdog;
    private ElectorState state = new ElectorState.Following(null, 0);
    private volatile @Nullable LeaderTerm term;
    private volatile String leader = "";
    /** Set by the elector's thread when it ended a term because of close(): close() then releases the lease. */
    private volatile boolean ledWhenClosed;
    /** Set by {@link #abandon()}: the lease is never released after that. */
    private volatile boolean abandoned;

    public LeaderElector(LeaderElectionConfig config) {
        this.config = config;
        this.lock = config.lock();
    }

    /** Starts campaigning on a thread of the configured factory, and the term's watchdog on another. */
    public void start() {
        synchronized (lifecycle) {
            if (thread != null) {
                throw new IllegalStateException(config.name() + ": the elector was started already");
            }
            watchdog = config.threadFactory().newThread(this::watch);
            watchdog.setName("leader-elector-" + config.name() + "-watchdog");
            watchdog.start();
            thread = config.threadFactory().newThread(this::run);
            thread.setName("leader-elector-" + config.name());
            thread.start();
        }
    }

    /** True while this candidate leads and its term is valid (see {@link Leadership#isValid()}). */
    public boolean isLeader() {
        LeaderTerm current = term;
        return current != null && current.isValid();
    }

    /** The holder the lock showed last ("" when released or not read yet). */
    public String leader() {
        return leader;
    }

    /**
     * Stops campaigning; if leading, ends the term and (when configured) releases the lease.
     * A request to the lock in flight is abandoned. Waits up to the renew deadline plus two
     * retry periods for that to finish. After {@link #abandon()}, releases nothing.
     */
    @Override
    public void close() {
        stop();
    }

    /**
     * Stops campaigning and, if leading, ends the term, like {@link #close()}, but never releases
     * the lease: it stays with this candidate until it expires, so others take over only after the
     * lease duration, as if this process had died. For a holder whose work may still be running
     * (it did not stop within its shutdown timeout): a release would let the next holder start
     * at once, beside that work. A request to the lock in flight is abandoned; if it was a
     * renewal that still reaches the server, the lease expires a lease duration after that.
     * Idempotent; a {@link #close()} afterwards releases nothing either.
     */
    public void abandon() {
        abandoned = true;
        stop();
    }

    private void stop() {
        closing.raise();
        Thread running;
        Thread guard;
        synchronized (lifecycle) {
            running = thread;
            guard = watchdog;
        }
        if (running != null && running != Thread.currentThread()) {
            running.interrupt(); // abandons a request in flight
            try {
                running.join(config.timing().renewDeadline().toMillis() + 2 * config.timing().retryPeriod().toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            // Released here, not on the elector's thread, where close()'s interrupt could still
            // arrive; and only once that thread has ended the term (onStoppedLeading has returned).
            if (!running.isAlive() && ledWhenClosed && !abandoned && config.releaseOnClose()) {
                ledWhenClosed = false;
                LeaseRelease.release(lock, config);
            }
        }
        if (guard != null && guard != Thread.currentThread()) {
            guard.interrupt(); // never waits for the monitor: a callback may be running under it
        }
    }

    private boolean isClosing() {
        return closing.isRaised();
    }

    private long now() {
        return config.timeSource().nanoTime();
    }

    private void run() {
        log.info("{}: campaigning as {} for {}", config.name(), lock.identity(), lock.describe());
        while (!isClosing()) {
            boolean leading;
            monitor.lock();
            try {
                leading = state instanceof ElectorState.Leading;
            } finally {
                monitor.unlock();
            }
            if (leading) {
                LeaderTerm current = term;
                if (current != null && current.isValid()) {
                    sleep(config.timing().retryPeriod().toNanos());
                } // else the last write was slow: renew at once, while the term lasts
                if (!isClosing()) {
                    tryAcquireOrRenew();
                }
            } else {
                campaignOnce();
            }
        }
        Thread.interrupted(); // close() interrupted a request in flight
        boolean leading;
        monitor.lock();
        try {
            leading = state instanceof ElectorState.Leading;
            apply(new ElectorState.Event.Closed(), "the elector is closing");
        } finally {
            monitor.unlock();
        }
        ledWhenClosed = leading;
        log.info("{}: stopped campaigning", config.name());
    }

    /** One attempt while following, then the wait before the next. */
    private void campaignOnce() {
        Attempt attempt = tryAcquireOrRenew();
        if (attempt == Attempt.HELD || isClosing()) {
            return;
        }
        long period = config.timing().retryPeriod().toNanos();
        long wait = period + (long) (ThreadLocalRandom.current().nextDouble() * (LeaseTiming.JITTER - 1) * period);
        if (attempt == Attempt.HELD_BY_OTHER) {
            // Try again right when the observed lease runs out, not up to a retry period later.
            Optional<Long> runsOut;
            monitor.lock();
            try {
                runsOut = ElectorState.othersLeaseRunsOutAt(state, lock.identity(), now());
            } finally {
                monitor.unlock();
            }
            if (runsOut.isPresent()) {
                wait = Math.max(TimeUnit.MILLISECONDS.toNanos(1), Math.min(wait, runsOut.get() - now() + 1));
            }
        }
        sleep(wait);
    }

    /** Ends the term when its deadline passes, whatever the elector's thread is waiting for. */
    private void watch() {
        monitor.lock();
        try {
            while (!isClosing()) {
                try {
                    if (state instanceof ElectorState.Leading leading) {
                        long deadline = leading.renewedAtNanos() + config.timing().renewDeadline().toNanos();
                        if (deadline - now() <= 0) {
                            apply(new ElectorState.Event.Tick(now()), "no renewal succeeded within the renew deadline of "
                                    + config.timing().renewDeadline());
                        } else {
                            config.timeSource().awaitUntil(changed, deadline);
                        }
                    } else {
                        changed.await();
                    }
                } catch (InterruptedException e) {
                    return; // close()
                }
            }
        } finally {
            monitor.unlock();
        }
    }

    /** The request deadline for the next call to the lock: never past the current term's end. */
    private Duration requestDeadline() {
        monitor.lock();
        try {
            if (state instanceof ElectorState.Leading leading) {
                long left = leading.renewedAtNanos() + config.timing().renewDeadline().toNanos() - now();
                return Duration.ofNanos(Math.max(TimeUnit.MILLISECONDS.toNanos(1), left));
            }
        } finally {
            monitor.unlock();
        }
        return config.timing().renewDeadline();
    }

    /**
     * One attempt to take or keep the lock (client-go's {@code tryAcquireOrRenew}). Once the elector
     * is closing (or abandoned) it writes nothing, even after a read that was in flight.
     */
    Attempt tryAcquireOrRenew() {
        Instant wallNow = config.timeSource().now();
        Optional<ResourceLock.Observed> seen;
        try {
            seen = lock.get(requestDeadline());
        } catch (RuntimeException e) {
            log.warn("{}: cannot read {}: {}", config.name(), lock.describe(), e.getMessage());
            apply(new ElectorState.Event.Failed(now()), "reading the lock failed");
            return Attempt.FAILED;
        }
        ElectorState afterRead = apply(new ElectorState.Event.Read(seen, now()), "the lock shows another holder");
        if (afterRead instanceof ElectorState.Released) {
            return Attempt.FAILED;
        }
        if (isClosing()) {
            return Attempt.FAILED; // closing or abandoned: no write any more (the read may have hung until now)
        }
        if (seen.isEmpty()) {
            LeaderElectionRecord mine = LeaderElectionRecord.first(lock.identity(), config.timing().leaseDuration(), wallNow);
            long sent = now();
            try {
                lock.create(mine, requestDeadline());
            } catch (RuntimeException e) {
                writeFailed("create", e);
                return Attempt.FAILED;
            }
            return wrote(new ResourceLock.Observed(mine, ""), sent);
        }
        if (ElectorState.othersLeaseRunsOutAt(afterRead, lock.identity(), now()).isPresent()) {
            return Attempt.HELD_BY_OTHER;
        }
        LeaderElectionRecord next = seen.get().record().writtenBy(lock.identity(), config.timing().leaseDuration(), wallNow);
        long sent = now();
        try {
            lock.update(next, seen.get().version(), requestDeadline());
        } catch (RuntimeException e) {
            writeFailed("update", e);
            return Attempt.FAILED;
        }
        return wrote(new ResourceLock.Observed(next, seen.get().version()), sent);
    }

    private Attempt wrote(ResourceLock.Observed written, long sentAtNanos) {
        ElectorState after = apply(new ElectorState.Event.Wrote(written, sentAtNanos, now()),
                "the renewal came back after the renew deadline of " + config.timing().renewDeadline());
        return after instanceof ElectorState.Leading ? Attempt.HELD : Attempt.FAILED;
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
        apply(new ElectorState.Event.Failed(now()), verb + " of the lock failed");
    }

    /**
     * Moves to the state after {@code event} and carries out what the move means: a new term
     * starts, a term is renewed or ends (its callbacks run here, on whichever thread reported the
     * event), a new holder is announced.
     *
     * @param reason why a term that ends here ended, for the log
     */
    private ElectorState apply(ElectorState.Event event, String reason) {
        monitor.lock();
        try {
            ElectorState before = state;
            if (event instanceof ElectorState.Event.Wrote && isClosing()) {
                return before; // a write in flight when closing began starts or renews no term
            }
            ElectorState after = ElectorState.next(before, event, lock.identity(), config.timing().renewDeadline());
            state = after;
            if (before instanceof ElectorState.Leading && !(after instanceof ElectorState.Leading)) {
                endTerm(reason);
            }
            announce(after);
            if (after instanceof ElectorState.Leading leading) {
                if (before instanceof ElectorState.Leading) {
                    LeaderTerm current = term;
                    if (current != null) {
                        current.renewed(leading.renewedAtNanos());
                    }
                } else {
                    startTerm(leading.renewedAtNanos());
                }
            }
            changed.signalAll(); // the watchdog re-reads the deadline
            return after;
        } finally {
            monitor.unlock();
        }
    }

    private void announce(ElectorState current) {
        ResourceLock.Observed seen = current instanceof ElectorState.Following following ? following.observed()
                : current instanceof ElectorState.Leading leading ? leading.written() : null;
        if (seen == null) {
            return;
        }
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

    private void startTerm(long renewedAtNanos) {
        LeaderTerm current = new LeaderTerm(renewedAtNanos, config.timing().renewDeadline(), config.timeSource());
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
        current.work = work;
        work.start();
    }

    private void endTerm(String reason) {
        LeaderTerm current = term;
        if (current == null) {
            return;
        }
        current.end();
        Thread work = current.work;
        if (work != null) {
            work.interrupt();
        }
        config.metrics().leading(config.name(), false);
        log.info("{}: {} stopped leading: {}", config.name(), lock.identity(), reason);
        try {
            config.callbacks().onStoppedLeading();
        } catch (RuntimeException e) {
            log.error("{}: onStoppedLeading failed", config.name(), e);
        }
    }

    /** Waits {@code nanos} on the time source, or until {@link #close()}. */
    private void sleep(long nanos) {
        TimeSource time = config.timeSource();
        try {
            closing.awaitUntil(time.deadlineAfter(Duration.ofNanos(nanos)), time);
        } catch (InterruptedException e) {
            closing.raise(); // only close() interrupts this thread
        }
    }
}
