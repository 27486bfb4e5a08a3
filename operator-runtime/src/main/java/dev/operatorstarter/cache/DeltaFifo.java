package dev.operatorstarter.cache;

import io.fabric8.kubernetes.api.model.HasMetadata;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;

/**
 * A FIFO of keys, each with the list of changes ({@link Delta}s) that happened to its object since
 * it was last popped (client-go's {@code DeltaFIFO}). The reflector feeds it; the informer pops
 * keys one at a time and applies their deltas to the {@link Indexer} in order.
 *
 * <p>Guarantees:
 * <ul>
 *   <li>Keys come out in the order they first got a pending delta; a key is queued once however
 *       many deltas it collects; its deltas come out in the order they happened.</li>
 *   <li>Two consecutive deletions of one key collapse into one (keeping a real final state over a
 *       tombstone).</li>
 *   <li>{@link #replace} queues {@link Delta.Type#REPLACED} for every listed object and a
 *       {@linkplain Delta#deletedFinalStateUnknown tombstone} for every known or queued key the
 *       list no longer has, carrying the newest state seen (queued, else known).</li>
 *   <li>{@link #resync} queues {@link Delta.Type#SYNC} only for known keys with nothing pending, so
 *       a resync never reorders or hides a real change.</li>
 *   <li>{@link #hasSynced} turns true once the keys of the first {@code replace} have all been
 *       popped (or when an add, update or delete arrives before any replace).</li>
 *   <li>{@link #pop} holds the FIFO's lock while the consumer runs, so the known objects (the
 *       indexer the consumer updates) cannot change under a concurrent {@code replace} or
 *       {@code resync}. The consumer must therefore be quick and must not call back into this FIFO.</li>
 * </ul>
 *
 * <p>Thread-safe. {@link #close} wakes blocked {@code pop} calls, which then return empty.
 */
final class DeltaFifo<T extends HasMetadata> {

    /** The objects already applied downstream: the informer's indexer. */
    public interface KnownObjects<T> {
        List<String> listKeys();

        Optional<T> get(String key);
    }

    /** The deltas of one key, oldest first, as handed to the {@link #pop} consumer. */
    public record Deltas<T>(String key, List<Delta<T>> deltas, boolean isInInitialList) {
        public Deltas {
            deltas = List.copyOf(deltas);
        }

        /** The newest delta. */
        public Delta<T> newest() {
            return deltas.get(deltas.size() - 1);
        }
    }

    private final KnownObjects<T> known;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition notEmpty = lock.newCondition();
    private final Map<String, List<Delta<T>>> items = new HashMap<>();
    private final ArrayDeque<String> queue = new ArrayDeque<>();
    private boolean populated;
    private int initialPopulationCount;
    private boolean closed;

    public DeltaFifo(KnownObjects<T> known) {
        this.known = known;
    }

    /** Queues an {@link Delta.Type#ADDED} delta. */
    public void add(T object) {
        withLock(() -> {
            populated = true;
            queueDelta(Delta.added(object));
        });
    }

    /** Queues an {@link Delta.Type#UPDATED} delta. */
    public void update(T object) {
        withLock(() -> {
            populated = true;
            queueDelta(Delta.updated(object));
        });
    }

    /**
     * Queues a {@link Delta.Type#DELETED} delta, unless the object is neither known nor queued
     * (then there is nothing downstream to delete).
     */
    public void delete(T object) {
        String key = Keys.of(object);
        withLock(() -> {
            populated = true;
            if (!items.containsKey(key) && known.get(key).isEmpty()) {
                return;
            }
            queueDelta(Delta.deleted(object));
        });
    }

    /**
     * Queues the result of a (re)list: {@link Delta.Type#REPLACED} for each object, and a tombstone for
     * each key that is queued or known but not in {@code list}. The tombstone carries the newest
     * state this FIFO has for the key: its newest queued delta when it has one (a later state than
     * the cache's), else the known object (client-go's {@code DeltaFIFO.Replace}).
     */
    public void replace(Collection<? extends T> list) {
        replace(list, Set.of());
    }

    /**
     * As {@link #replace(Collection)}, for a list some of whose objects could not be read (the
     * transform failed on them): the keys in {@code unread} are neither replaced nor deleted, so
     * whatever is known or queued for them stays.
     */
    public void replace(Collection<? extends T> list, Set<String> unread) {
        withLock(() -> {
            Set<String> listed = new HashSet<>((list.size() + unread.size()) * 4 / 3 + 1);
            for (T object : list) {
                listed.add(Keys.of(object));
                queueDelta(Delta.replaced(object));
            }
            // Keys, not list entries: a list repeating a key queues it once, and pop counts keys.
            int listedKeys = listed.size();
            listed.addAll(unread);
            int tombstones = 0;
            for (String key : new ArrayList<>(items.keySet())) {
                if (listed.contains(key)) {
                    continue;
                }
                List<Delta<T>> pending = items.get(key);
                Delta<T> newest = pending.get(pending.size() - 1);
                if (newest.type() != Delta.Type.DELETED) {
                    queueDelta(key, Delta.deletedFinalStateUnknown(newest.object()));
                    tombstones++;
                }
            }
            for (String key : known.listKeys()) {
                if (listed.contains(key) || items.containsKey(key)) {
                    continue; // a queued key was handled above, with its newer state
                }
                Optional<T> last = known.get(key);
                if (last.isPresent()) {
                    queueDelta(key, Delta.deletedFinalStateUnknown(last.get()));
                    tombstones++;
                }
            }
            if (!populated) {
                populated = true;
                initialPopulationCount = listedKeys + tombstones;
            }
        });
    }

    /** Queues {@link Delta.Type#SYNC} for every known object whose key has nothing pending. */
    public void resync() {
        withLock(() -> {
            for (String key : known.listKeys()) {
                if (!items.containsKey(key)) {
                    known.get(key).ifPresent(object -> queueDelta(key, Delta.sync(object)));
                }
            }
        });
    }

    /**
     * Waits up to {@code timeout} for a key, removes it and gives its deltas to {@code consumer}
     * while holding the lock. Returns false on timeout or when closed (and empty).
     *
     * @throws InterruptedException if interrupted while waiting
     */
    public boolean pop(Consumer<Deltas<T>> consumer, long timeout, TimeUnit unit) throws InterruptedException {
        long remaining = unit.toNanos(timeout);
        lock.lockInterruptibly();
        try {
            while (queue.isEmpty()) {
                if (closed || remaining <= 0) {
                    return false;
                }
                remaining = notEmpty.awaitNanos(remaining);
            }
            String key = queue.poll();
            List<Delta<T>> deltas = items.remove(key);
            boolean initial = initialPopulationCount > 0;
            if (initial) {
                initialPopulationCount--;
            }
            consumer.accept(new Deltas<>(key, deltas, initial));
            return true;
        } finally {
            lock.unlock();
        }
    }

    /** True once the first replace has been fully popped (see the class comment). */
    public boolean hasSynced() {
        lock.lock();
        try {
            return populated && initialPopulationCount == 0;
        } finally {
            lock.unlock();
        }
    }

    /** True when no key has pending deltas. */
    public boolean isEmpty() {
        lock.lock();
        try {
            return queue.isEmpty();
        } finally {
            lock.unlock();
        }
    }

    /** The keys with pending deltas, in queue order. */
    public List<String> listKeys() {
        lock.lock();
        try {
            return new ArrayList<>(queue);
        } finally {
            lock.unlock();
        }
    }

    /** The pending deltas of {@code key}, oldest first (empty when none). */
    public List<Delta<T>> pending(String key) {
        lock.lock();
        try {
            List<Delta<T>> deltas = items.get(key);
            return deltas == null ? List.of() : List.copyOf(deltas);
        } finally {
            lock.unlock();
        }
    }

    /** Stops the FIFO: {@code pop} drains what is queued, then returns false at once. */
    public void close() {
        withLock(() -> {
            closed = true;
            notEmpty.signalAll();
        });
    }

    public boolean isClosed() {
        lock.lock();
        try {
            return closed;
        } finally {
            lock.unlock();
        }
    }

    private void queueDelta(Delta<T> delta) {
        queueDelta(Keys.of(delta.object()), delta);
    }

    private void queueDelta(String key, Delta<T> delta) {
        List<Delta<T>> deltas = items.get(key);
        if (deltas == null) {
            deltas = new ArrayList<>(2);
            items.put(key, deltas);
            queue.add(key);
            notEmpty.signal();
        }
        deltas.add(delta);
        collapseDeletes(deltas);
    }

    /** Two deletions in a row are one: keep the one with a real final state, else the newer. */
    private static <T> void collapseDeletes(List<Delta<T>> deltas) {
        int n = deltas.size();
        if (n < 2) {
            return;
        }
        Delta<T> older = deltas.get(n - 2);
        Delta<T> newer = deltas.get(n - 1);
        if (older.type() != Delta.Type.DELETED || newer.type() != Delta.Type.DELETED) {
            return;
        }
        @Nullable Delta<T> keep = newer.finalStateUnknown() && !older.finalStateUnknown() ? older : newer;
        deltas.remove(n - 1);
        deltas.set(n - 2, keep);
    }

    private void withLock(Runnable action) {
        lock.lock();
        try {
            action.run();
        } finally {
            lock.unlock();
        }
    }
}
