package dev.operatorstarter.test.faults;

import java.util.Objects;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * An {@link Injection} with its budget of requests, its count, and the requests a hang holds.
 * Requests take it with {@link #take()}; a hang's connection threads wait in {@link #hold()}.
 */
final class ActiveInjection implements Injection {

    private final RequestMatcher requests;
    private final Fault fault;
    private final Consumer<ActiveInjection> onRemove;
    private final AtomicLong left; // requests it may still take; Long.MAX_VALUE for no limit
    private final AtomicLong matched = new AtomicLong();

    // guarded by this
    private long releases;
    private int held;
    private boolean removed;
    private boolean closed;

    ActiveInjection(RequestMatcher requests, Fault fault, long times, Consumer<ActiveInjection> onRemove) {
        this.requests = Objects.requireNonNull(requests, "requests");
        this.fault = Objects.requireNonNull(fault, "fault");
        this.onRemove = onRemove;
        this.left = new AtomicLong(times);
    }

    @Override
    public Fault fault() {
        return fault;
    }

    @Override
    public RequestMatcher requests() {
        return requests;
    }

    /** Takes a matching request if removal or the budget allow, and counts it. */
    boolean take() {
        synchronized (this) {
            if (removed) {
                return false;
            }
        }
        long now;
        do {
            now = left.get();
            if (now <= 0) {
                return false;
            }
        } while (!left.compareAndSet(now, now == Long.MAX_VALUE ? now : now - 1));
        matched.incrementAndGet();
        return true;
    }

    /**
     * Waits while a hang holds the calling request.
     *
     * @return {@code true} when released or removed (forward the request), {@code false} when the
     *         proxy closed or the thread was interrupted (cut it)
     */
    boolean hold() {
        synchronized (this) {
            long generation = releases;
            held++;
            try {
                while (releases == generation && !removed && !closed) {
                    wait();
                }
                return !closed;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            } finally {
                held--;
            }
        }
    }

    @Override
    public long matched() {
        return matched.get();
    }

    @Override
    public synchronized int held() {
        return held;
    }

    @Override
    public synchronized void release() {
        releases++;
        notifyAll();
    }

    @Override
    public void remove() {
        synchronized (this) {
            if (removed) {
                return;
            }
            removed = true;
            notifyAll();
        }
        onRemove.accept(this);
    }

    /** The proxy closed: held requests are let go, to be cut. */
    synchronized void close() {
        closed = true;
        notifyAll();
    }

    /** Whether it has taken as many requests as it was injected for. */
    boolean isSpent() {
        return left.get() <= 0;
    }

    @Override
    public synchronized boolean isActive() {
        return !removed && !closed && left.get() > 0;
    }

    @Override
    public String toString() {
        return "Injection[" + fault + " for " + requests + ", matched " + matched() + "]";
    }
}
