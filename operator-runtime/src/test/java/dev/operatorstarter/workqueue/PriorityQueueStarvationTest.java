package dev.operatorstarter.workqueue;

import static org.assertj.core.api.Assertions.assertThat;

import dev.operatorstarter.testing.FakeTimeSource;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The bound that keeps {@link PriorityQueue} from starving its low priorities: an item is handed
 * out within {@code k · (n + 1)} hand-outs of being queued, {@code n} being the items waiting
 * then and {@code k} the queue's {@code oldestEvery}; with {@code W} workers whose reconciles take
 * {@code r}, within {@code k · (n + 1) · r / W} of fake time, while fresh items arrive faster
 * than the workers take them. Workers are simulated on a {@link FakeTimeSource}, one thread.
 */
class PriorityQueueStarvationTest {

    private static final int WORKERS = 2;
    private static final Duration RECONCILE = Duration.ofMillis(100);
    /** Fresh items per reconcile time: more than the {@value #WORKERS} the workers take. */
    private static final int FRESH_PER_TICK = 3;
    private static final int INITIAL_LIST = 50;

    private final FakeTimeSource clock = new FakeTimeSource();

    /** When {@code watched} was handed out, in fake time since it was queued; null if never within {@code ticks}. */
    private Duration simulate(PriorityQueue<String> queue, String watched, int ticks) throws InterruptedException {
        for (int i = 0; i < INITIAL_LIST; i++) {
            queue.add("initial-" + i, PriorityQueue.LOW);
        }
        queue.add(watched, PriorityQueue.LOW); // n = INITIAL_LIST items wait ahead of it
        long queuedAt = clock.nanoTime();
        int fresh = 0;
        for (int tick = 0; tick < ticks; tick++) {
            for (int i = 0; i < FRESH_PER_TICK; i++) {
                queue.add("fresh-" + fresh++);
            }
            List<String> taken = new ArrayList<>();
            for (int w = 0; w < WORKERS; w++) {
                String item = queue.get().orElseThrow();
                if (item.equals(watched)) {
                    return Duration.ofNanos(clock.nanoTime() - queuedAt);
                }
                taken.add(item);
            }
            clock.advance(RECONCILE);
            taken.forEach(queue::done);
        }
        return null;
    }

    @Test
    void anInitialListItemIsReconciledWithinTheBoundWhileFreshItemsArriveFasterThanTheWorkersTakeThem()
            throws Exception {
        int k = 4;
        PriorityQueue<String> queue = WorkQueue.<String>builder().name("test").timeSource(clock).oldestEvery(k).build();
        Duration bound = RECONCILE.multipliedBy((long) k * (INITIAL_LIST + 1)).dividedBy(WORKERS); // 10.2 s

        Duration waited = simulate(queue, "last-of-the-list", 10_000);

        assertThat(waited).as("handed out at all").isNotNull();
        assertThat(waited).isLessThanOrEqualTo(bound);
        assertThat(queue.len()).as("the fresh items pile up: the workers are saturated").isGreaterThan(INITIAL_LIST);
    }

    /** controller-runtime's order (no oldest-first turns): the same list item is never reconciled. */
    @Test
    void withoutOldestFirstTurnsTheSameItemStarves() throws Exception {
        PriorityQueue<String> queue = WorkQueue.<String>builder().name("test").timeSource(clock)
                .oldestEvery(Integer.MAX_VALUE).build();

        Duration waited = simulate(queue, "last-of-the-list", 1_020); // ten times the bound above

        assertThat(waited).as("never handed out").isNull();
    }

    /** A seeded random mix of adds at random priorities and hand-outs; every hand-out is checked against the bound. */
    @ParameterizedTest
    @ValueSource(ints = {2, 4, 10})
    void noItemWaitsLongerThanTheBoundInHandOuts(int k) throws Exception {
        PriorityQueue<String> queue = WorkQueue.<String>builder().name("test").timeSource(clock).oldestEvery(k).build();
        Random random = new Random(42 + k);
        Map<String, long[]> queued = new HashMap<>(); // item -> {hand-outs when queued, items waiting then}
        long handOuts = 0;
        for (int step = 0; step < 20_000; step++) {
            if (random.nextInt(100) < 55) { // more adds than takes: the queue grows, the high priorities dominate
                String item = "item-" + random.nextInt(2_000);
                int priority = random.nextInt(10) < 8 ? random.nextInt(5) : PriorityQueue.LOW;
                if (!queued.containsKey(item)) {
                    queued.put(item, new long[] {handOuts, queue.len()});
                }
                queue.add(item, priority);
            } else if (queue.len() > 0) {
                String item = queue.get().orElseThrow();
                handOuts++;
                long[] at = queued.remove(item);
                assertThat(handOuts - at[0]).as("%s, queued with %s waiting", item, at[1])
                        .isLessThanOrEqualTo(k * (at[1] + 1));
                queue.done(item);
            }
        }
    }

    /**
     * A turn for the oldest is spent only on passing it over: while the hand-outs take the oldest
     * item anyway (a restart's initial list, in order), a fresh change is the very next hand-out,
     * whatever the count of hand-outs so far.
     */
    @Test
    void aFreshItemIsNotHeldBackForTheOldestWhileTheOldestIsNotPassedOver() throws Exception {
        PriorityQueue<String> queue = WorkQueue.<String>builder().name("test").timeSource(clock).build();
        for (String item : List.of("a", "b", "c", "d", "e", "f", "g", "h")) {
            queue.add(item, PriorityQueue.LOW);
        }
        for (String expected : List.of("a", "b", "c")) {
            String item = queue.get().orElseThrow();
            assertThat(item).isEqualTo(expected);
            queue.done(item);
        }

        queue.add("fresh", PriorityQueue.NORMAL);

        assertThat(queue.get()).contains("fresh"); // the fourth hand-out, and not the oldest's turn
        assertThat(queue.get()).contains("d");
    }

    /**
     * The queue hands out exactly what a naive model of its rule would: the highest priority, first
     * queued (or first raised to it) first, except that the oldest waiting item is passed over at
     * most k - 1 times in a row (the k-th hand-out that would pass it over takes it); through runs
     * of one priority (kept in a deque) and of many (kept in trees) and the switches.
     */
    @ParameterizedTest
    @ValueSource(ints = {1, 3, 4})
    void theOrderIsTheModelsThroughRunsOfOnePriorityAndOfMany(int k) throws Exception {
        PriorityQueue<String> queue = WorkQueue.<String>builder().name("test").timeSource(clock).oldestEvery(k).build();
        Random random = new Random(1000 + k);
        List<long[]> model = new ArrayList<>(); // {item, priority, age, turn}
        long counter = 0;
        long handOuts = 0;
        int passedOver = 0;
        for (int step = 0; step < 30_000; step++) {
            int phase = (step / 3_000) % 3; // one priority only, two, five
            if (random.nextInt(100) < 52) {
                int item = random.nextInt(300);
                int priority = phase == 0 ? 0 : phase == 1 ? (random.nextBoolean() ? 0 : PriorityQueue.LOW)
                        : random.nextInt(5) - 2;
                long[] waiting = model.stream().filter(e -> e[0] == item).findFirst().orElse(null);
                if (waiting == null) {
                    model.add(new long[] {item, priority, counter, counter});
                    counter++;
                } else if (priority > waiting[1]) {
                    waiting[1] = priority;
                    waiting[3] = counter++;
                }
                queue.add(Integer.toString(item), priority);
            } else if (!model.isEmpty()) {
                handOuts++;
                long[] first = model.stream().min(java.util.Comparator.comparingLong((long[] e) -> -e[1])
                        .thenComparingLong(e -> e[3])).orElseThrow();
                long[] oldest = model.stream().min(java.util.Comparator.comparingLong((long[] e) -> e[2])).orElseThrow();
                long[] expected;
                if (first == oldest) {
                    expected = first;
                    passedOver = 0;
                } else if (++passedOver >= k) {
                    expected = oldest;
                    passedOver = 0;
                } else {
                    expected = first;
                }
                model.remove(expected);
                String item = queue.get().orElseThrow();
                assertThat(item).as("hand-out %d", handOuts).isEqualTo(Long.toString(expected[0]));
                queue.done(item);
            }
            assertThat(queue.len()).isEqualTo(model.size());
        }
    }

    private static Thread started(Runnable body) {
        Thread thread = new Thread(body);
        thread.start();
        return thread;
    }

    /**
     * Many threads add at random priorities while workers take: no item is held by two workers at
     * once, every item added is handed out, and the depth by priority ends at zero.
     */
    @Test
    void concurrentAddsAndWorkersKeepTheQueuesInvariants() throws Exception {
        AtomicReference<WorkQueueMetrics.QueueStats> stats = new AtomicReference<>();
        PriorityQueue<String> queue = WorkQueue.<String>builder().name("test").metrics(new WorkQueueMetrics() {
            @Override
            public Recorder bind(String name, QueueStats queueStats) {
                stats.set(queueStats);
                return Recorder.NONE;
            }
        }).build();
        Set<String> held = ConcurrentHashMap.newKeySet();
        Set<String> added = ConcurrentHashMap.newKeySet();
        Set<String> handedOut = ConcurrentHashMap.newKeySet();
        AtomicInteger violations = new AtomicInteger();
        List<Thread> producers = new ArrayList<>();
        for (int p = 0; p < 8; p++) {
            int seed = p;
            producers.add(started(() -> {
                Random random = new Random(seed);
                for (int i = 0; i < 2_000; i++) {
                    String item = "item-" + random.nextInt(500);
                    added.add(item);
                    queue.add(item, random.nextInt(3) == 0 ? PriorityQueue.LOW : random.nextInt(3));
                }
            }));
        }
        List<Thread> workers = new ArrayList<>();
        for (int w = 0; w < 8; w++) {
            workers.add(started(() -> {
                try {
                    for (var next = queue.get(); next.isPresent(); next = queue.get()) {
                        String item = next.get();
                        if (!held.add(item)) {
                            violations.incrementAndGet();
                        }
                        handedOut.add(item);
                        held.remove(item);
                        queue.done(item);
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }));
        }
        for (Thread producer : producers) {
            producer.join(TimeUnit.SECONDS.toMillis(30));
        }
        assertThat(queue.shutDownWithDrain(Duration.ofSeconds(30))).as("drained").isTrue();
        for (Thread worker : workers) {
            worker.join(TimeUnit.SECONDS.toMillis(30));
        }
        assertThat(violations).as("items held by two workers at once").hasValue(0);
        assertThat(handedOut).isEqualTo(new HashSet<>(added));
        for (int priority : new int[] {PriorityQueue.LOW, 0, 1, 2}) {
            assertThat(stats.get().depth(priority)).isZero();
        }
    }
}
