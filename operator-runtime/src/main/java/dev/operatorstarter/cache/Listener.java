package dev.operatorstarter.cache;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One handler's unbounded buffer and the loop that drains it on the handler's own thread
 * (client-go's {@code processorListener}). Also tracks the handler's resync schedule and whether it
 * has processed the notifications of its initial list.
 */
final class Listener<T> implements HandlerRegistration {

    private static final Logger log = LoggerFactory.getLogger(Listener.class);

    /** What a handler is told. */
    sealed interface Notification<T> {
        record Add<T>(T object, boolean isInInitialList) implements Notification<T> {
        }

        record Update<T>(T oldObject, T newObject) implements Notification<T> {
        }

        record Delete<T>(T object, boolean finalStateUnknown) implements Notification<T> {
        }
    }

    private final String informer;
    private final ResourceEventHandler<T> handler;
    private final long resyncNanos;
    private final BooleanSupplier informerSynced;
    private final Runnable onRemove;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition notEmpty = lock.newCondition();
    private final ArrayDeque<Notification<T>> buffer = new ArrayDeque<>();
    /** Initial-list adds queued but not yet handled. */
    private int pendingInitial;
    private boolean stopped;
    private long nextResyncNanos;

    Listener(String informer, ResourceEventHandler<T> handler, Duration resyncPeriod, long nowNanos,
            BooleanSupplier informerSynced, Runnable onRemove) {
        this.informer = informer;
        this.handler = handler;
        this.resyncNanos = resyncPeriod.toNanos();
        this.nextResyncNanos = nowNanos + resyncNanos;
        this.informerSynced = informerSynced;
        this.onRemove = onRemove;
    }

    Duration resyncPeriod() {
        return Duration.ofNanos(resyncNanos);
    }

    /** Queues a notification; never blocks. */
    void add(Notification<T> notification) {
        lock.lock();
        try {
            if (stopped) {
                return;
            }
            if (notification instanceof Notification.Add<T> add && add.isInInitialList()) {
                pendingInitial++;
            }
            buffer.add(notification);
            notEmpty.signal();
        } finally {
            lock.unlock();
        }
    }

    /** When this handler's next resync is due; empty when it never resyncs. */
    java.util.OptionalLong nextResyncNanos() {
        lock.lock();
        try {
            return resyncNanos == 0 ? java.util.OptionalLong.empty() : java.util.OptionalLong.of(nextResyncNanos);
        } finally {
            lock.unlock();
        }
    }

    /**
     * True when this handler's resync is due at {@code nowNanos}; then schedules the next one a
     * period after {@code nowNanos} (client-go's {@code determineNextResync}).
     */
    boolean shouldResync(long nowNanos) {
        lock.lock();
        try {
            if (resyncNanos == 0 || nowNanos - nextResyncNanos < 0) {
                return false;
            }
            nextResyncNanos = nowNanos + resyncNanos;
            return true;
        } finally {
            lock.unlock();
        }
    }

    /** Delivers notifications until stopped; runs on the handler's own thread. */
    void run() {
        while (true) {
            Notification<T> next;
            lock.lock();
            try {
                while (buffer.isEmpty() && !stopped) {
                    notEmpty.awaitUninterruptibly();
                }
                if (stopped) {
                    return;
                }
                next = buffer.poll();
            } finally {
                lock.unlock();
            }
            deliver(next);
            if (next instanceof Notification.Add<T> add && add.isInInitialList()) {
                lock.lock();
                try {
                    pendingInitial--;
                } finally {
                    lock.unlock();
                }
            }
        }
    }

    private void deliver(Notification<T> notification) {
        try {
            if (notification instanceof Notification.Add<T> add) {
                handler.onAdd(add.object(), add.isInInitialList());
            } else if (notification instanceof Notification.Update<T> update) {
                handler.onUpdate(update.oldObject(), update.newObject());
            } else if (notification instanceof Notification.Delete<T> delete) {
                handler.onDelete(delete.object(), delete.finalStateUnknown());
            }
        } catch (Throwable e) {
            if (e instanceof VirtualMachineError && !(e instanceof StackOverflowError)) {
                throw (VirtualMachineError) e;
            }
            log.error("{}: handler {} failed on {} of {}", informer, handler, kindOf(notification),
                    keyOf(notification), e);
        }
    }

    private static String kindOf(Notification<?> notification) {
        return notification.getClass().getSimpleName().toLowerCase(java.util.Locale.ROOT);
    }

    private static String keyOf(Notification<?> notification) {
        Object object = notification instanceof Notification.Add<?> add ? add.object()
                : notification instanceof Notification.Update<?> update ? update.newObject()
                : ((Notification.Delete<?>) notification).object();
        return object instanceof io.fabric8.kubernetes.api.model.HasMetadata meta ? Keys.of(meta) : String.valueOf(object);
    }

    /** Ends the loop; what is buffered is dropped. */
    void stop() {
        lock.lock();
        try {
            stopped = true;
            buffer.clear();
            notEmpty.signalAll();
        } finally {
            lock.unlock();
        }
    }

    @Override
    public boolean hasSynced() {
        if (!informerSynced.getAsBoolean()) {
            return false;
        }
        lock.lock();
        try {
            return pendingInitial == 0;
        } finally {
            lock.unlock();
        }
    }

    @Override
    public void remove() {
        onRemove.run();
    }

    @Override
    public String toString() {
        return "handler " + handler + " of " + informer;
    }
}
