package dev.operatorstarter.testing;

import dev.operatorstarter.client.rest.ApiException;
import dev.operatorstarter.leaderelection.LeaderElectionRecord;
import dev.operatorstarter.leaderelection.ResourceLock;
import io.fabric8.kubernetes.api.model.StatusBuilder;
import java.time.Duration;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * A {@link ResourceLock} in memory: a Lease without an API server, for unit tests of leader
 * election ({@code new LeaderElector(LeaderElectionConfig.builder(lock, callbacks)...)}) and of
 * code that runs only while it leads.
 *
 * <p>Behaviour, as the API server's:
 * <ul>
 *   <li>Writes are compare-and-swap on a version counter: {@link #create} fails with
 *       {@link ApiException.AlreadyExists} (409) when the record exists, {@link #update} with
 *       {@link ApiException.Conflict} (409) when the version it was given is not the current
 *       one.</li>
 *   <li>{@link #as(String)} gives another candidate's lock on the same record, so several
 *       electors can race for it; {@link #put} writes the record as someone outside the test's
 *       electors would (a holder on another node), without a version check, and {@link #delete}
 *       deletes it so.</li>
 *   <li>Calls answer at once and ignore their deadline, unless a hook says otherwise:
 *       {@link #failWritesWith} makes every write throw (RBAC refusing it, a server error),
 *       {@link #loseAnswersWith} makes every write that succeeds throw after it was made (an answer
 *       lost on its way back),
 *       {@link #duringRead} runs code inside every read before it returns (a slow or hung server;
 *       advancing a fake time source there simulates a read that took that long). The hooks belong
 *       to the record, so they affect every candidate's lock on it.</li>
 * </ul>
 *
 * <p>{@link #writes()} counts the creates and updates that reached the record, made or refused.
 *
 * <p>Threading: thread-safe; the record and its version change atomically. {@link #describe()}
 * is {@code "memory lock"}.
 */
public final class InMemoryLeaseLock implements ResourceLock {

    /** The record every candidate's lock shares, with its hooks; guarded by itself. */
    private static final class Shared {
        @Nullable Observed current;
        int version;
        @Nullable RuntimeException writeFailure;
        @Nullable RuntimeException lostAnswer;
        int writes;
        volatile Runnable duringRead = () -> { };
    }

    private final String identity;
    private final Shared shared;

    /** A new record, empty (the lock object does not exist yet), locked for the candidate {@code identity}. */
    public InMemoryLeaseLock(String identity) {
        this(identity, new Shared());
    }

    private InMemoryLeaseLock(String identity, Shared shared) {
        this.identity = Objects.requireNonNull(identity, "identity");
        this.shared = shared;
    }

    /** The candidate {@code identity}'s lock on the same record. */
    public InMemoryLeaseLock as(String identity) {
        return new InMemoryLeaseLock(identity, shared);
    }

    /** Replaces the record, as another process would, and moves the version on. */
    public void put(LeaderElectionRecord record) {
        Objects.requireNonNull(record, "record");
        synchronized (shared) {
            shared.current = new Observed(record, Integer.toString(++shared.version));
        }
    }

    /** Deletes the record, as another process deleting the Lease would: the lock object no longer exists. */
    public void delete() {
        synchronized (shared) {
            shared.current = null;
            shared.version++;
        }
    }

    /**
     * The current record.
     *
     * @throws IllegalStateException when nothing has been written yet
     */
    public LeaderElectionRecord record() {
        synchronized (shared) {
            if (shared.current == null) {
                throw new IllegalStateException("the lock has no record yet");
            }
            return shared.current.record();
        }
    }

    /** From now on every {@link #create} and {@link #update} throws {@code failure}; {@code null} ends that. */
    public void failWritesWith(@Nullable RuntimeException failure) {
        synchronized (shared) {
            shared.writeFailure = failure;
        }
    }

    /**
     * From now on every {@link #create} and {@link #update} that succeeds throws {@code failure}
     * after the record was written, as when the server applied a write whose answer never came
     * back; {@code null} ends that.
     */
    public void loseAnswersWith(@Nullable RuntimeException failure) {
        synchronized (shared) {
            shared.lostAnswer = failure;
        }
    }

    /** How many creates and updates reached the record so far, through any candidate's lock. */
    public int writes() {
        synchronized (shared) {
            return shared.writes;
        }
    }

    /**
     * From now on every {@link #get} runs {@code action} after reading the record and before
     * returning it, on the caller's thread; {@code () -> { }} ends that. An action that blocks
     * simulates a read that hangs past its deadline.
     */
    public void duringRead(Runnable action) {
        shared.duringRead = Objects.requireNonNull(action, "action");
    }

    @Override
    public Optional<Observed> get(Duration deadline) {
        Optional<Observed> read;
        synchronized (shared) {
            read = Optional.ofNullable(shared.current);
        }
        shared.duringRead.run();
        return read;
    }

    @Override
    public void create(LeaderElectionRecord record, Duration deadline) {
        synchronized (shared) {
            shared.writes++;
            if (shared.writeFailure != null) {
                throw shared.writeFailure;
            }
            if (shared.current != null) {
                throw failure("AlreadyExists", 409);
            }
            shared.current = new Observed(record, Integer.toString(++shared.version));
            if (shared.lostAnswer != null) {
                throw shared.lostAnswer;
            }
        }
    }

    @Override
    public void update(LeaderElectionRecord record, String version, Duration deadline) {
        synchronized (shared) {
            shared.writes++;
            if (shared.writeFailure != null) {
                throw shared.writeFailure;
            }
            if (shared.current == null || !shared.current.version().equals(version)) {
                throw failure("Conflict", 409);
            }
            shared.current = new Observed(record, Integer.toString(++shared.version));
            if (shared.lostAnswer != null) {
                throw shared.lostAnswer;
            }
        }
    }

    @Override
    public String identity() {
        return identity;
    }

    @Override
    public String describe() {
        return "memory lock";
    }

    /** The exception the API server's Status gives, as the client throws it. */
    private static ApiException failure(String reason, int code) {
        return ApiException.fromStatus(new StatusBuilder().withReason(reason).withCode(code)
                .withMessage(reason.toLowerCase(Locale.ROOT)).build(), "PUT memory lock");
    }
}
