package dev.operatorstarter.workqueue;

import java.util.ArrayDeque;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeSet;

/**
 * The items of a {@link LockingQueue} that wait to be handed out, in the order they will be:
 * either FIFO, or by priority, where the item that has waited longest is passed over at most
 * {@code oldestEvery - 1} times in a row: the next hand-out that would pass it over takes it
 * instead (see {@link PriorityQueue} for the guarantee this gives). Counts the waiting items by
 * priority in both orders, for {@code workqueue_depth}.
 *
 * <p>Why the bound holds: each entry gets a sequence number when it is queued, and numbers only
 * grow, so the set of entries older than a given one only shrinks. At least one hand-out in every
 * {@code oldestEvery} takes the oldest entry; an entry with {@code n} older entries is therefore
 * taken within {@code oldestEvery · (n + 1)} hand-outs. A hand-out that takes the oldest entry
 * anyway (its priority is the highest waiting) spends no turn, so a fresh item is not held back
 * for the oldest while the oldest is not being passed over. Raising an entry's priority keeps its sequence number (its age), and gives it a new
 * turn among the entries of its new priority.
 *
 * <p>Costs: FIFO is an array deque (O(1)). By priority, while every waiting entry has the same
 * priority (a controller's usual state, and any queue fed by {@code add(item)} alone) the entries
 * stay in that deque too, since queue order is then both priority and age order; the first entry
 * of another priority moves them into two red-black trees (O(log n) for each add, raise and
 * hand-out), until the queue is empty again. Not thread-safe: the queue calls it under its lock.
 */
final class ReadyItems<T> {

    private static final Comparator<QueueEntry<?>> BY_PRIORITY = Comparator
            .<QueueEntry<?>>comparingInt(entry -> -entry.priority).thenComparingLong(entry -> entry.turn);
    private static final Comparator<QueueEntry<?>> BY_AGE = Comparator.comparingLong(entry -> entry.sequence);

    private final boolean prioritized;
    private final int oldestEvery;
    private final ArrayDeque<QueueEntry<T>> fifo = new ArrayDeque<>();
    private final TreeSet<QueueEntry<T>> byPriority = new TreeSet<>(BY_PRIORITY);
    private final TreeSet<QueueEntry<T>> byAge = new TreeSet<>(BY_AGE);
    /** Waiting entries by priority; a priority stays once seen (its gauge reads zero). */
    private final Map<Integer, int[]> depths = new HashMap<>();
    private long sequence;
    /** Hand-outs in a row that passed over the oldest waiting entry. */
    private int passedOver;
    /**
     * By priority: true while every waiting entry has {@link #uniformPriority} and they wait in
     * {@link #fifo}, in queue order; false while they wait in the trees.
     */
    private boolean uniform = true;
    private int uniformPriority;

    ReadyItems(boolean prioritized, int oldestEvery) {
        if (oldestEvery < 1) {
            throw new IllegalArgumentException("oldestEvery must be at least 1, was " + oldestEvery);
        }
        this.prioritized = prioritized;
        this.oldestEvery = oldestEvery;
    }

    /** Queues {@code entry} at its priority, as the youngest entry. */
    void add(QueueEntry<T> entry) {
        entry.sequence = sequence++;
        entry.turn = entry.sequence;
        count(entry.priority, 1);
        if (!prioritized || uniform && (fifo.isEmpty() || entry.priority == uniformPriority)) {
            uniformPriority = entry.priority;
            fifo.add(entry);
            return;
        }
        if (uniform) {
            spill();
        }
        byPriority.add(entry);
        byAge.add(entry);
    }

    /** Moves the waiting entries from the deque into the trees: priorities now differ. */
    private void spill() {
        for (QueueEntry<T> waiting : fifo) {
            byPriority.add(waiting);
            byAge.add(waiting);
        }
        fifo.clear();
        uniform = false;
    }

    /**
     * Raises the priority of the waiting {@code entry} to {@code priority}, if that is higher: it
     * goes to the back of the items of that priority, and keeps its age for the oldest-first turns.
     */
    void raise(QueueEntry<T> entry, int priority) {
        if (priority <= entry.priority) {
            return;
        }
        count(entry.priority, -1);
        count(priority, 1);
        if (!prioritized) {
            entry.priority = priority;
            return;
        }
        if (uniform && fifo.size() == 1) {
            entry.priority = priority;
            uniformPriority = priority;
            return;
        }
        if (uniform) {
            spill();
        }
        byPriority.remove(entry);
        entry.priority = priority;
        entry.turn = sequence++; // the back of its new priority; its age stays
        byPriority.add(entry);
    }

    /** Takes the next entry to hand out; the caller checks {@link #isEmpty()} first. */
    QueueEntry<T> poll() {
        QueueEntry<T> entry;
        if (!prioritized || uniform) {
            entry = fifo.poll(); // the oldest, and of the highest priority waiting
            passedOver = 0;
        } else if (byPriority.first() == byAge.first()) {
            entry = byPriority.pollFirst(); // the highest priority is the oldest: nobody is passed over
            byAge.remove(entry);
            passedOver = 0;
        } else if (++passedOver >= oldestEvery) {
            entry = byAge.pollFirst(); // the oldest's turn
            byPriority.remove(entry);
            passedOver = 0;
        } else {
            entry = byPriority.pollFirst();
            byAge.remove(entry);
        }
        if (!uniform && byPriority.isEmpty()) {
            uniform = true;
        }
        count(entry.priority, -1);
        return entry;
    }

    boolean isEmpty() {
        return uniform ? fifo.isEmpty() : byPriority.isEmpty();
    }

    int size() {
        return uniform ? fifo.size() : byPriority.size();
    }

    /** The entries waiting at {@code priority}. */
    int depth(int priority) {
        int[] depth = depths.get(priority);
        return depth == null ? 0 : depth[0];
    }

    private void count(int priority, int delta) {
        depths.computeIfAbsent(priority, p -> new int[1])[0] += delta;
    }
}
