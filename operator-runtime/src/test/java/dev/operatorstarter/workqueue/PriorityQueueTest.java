package dev.operatorstarter.workqueue;

import static org.assertj.core.api.Assertions.assertThat;

import dev.operatorstarter.testing.FakeTimeSource;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The cases of controller-runtime's {@code priorityqueue_test.go}, each as the guarantee it
 * checks, against {@link PriorityQueue}; where our queue keeps client-go's rules instead (an item
 * added while in progress is queued when done; a delayed add of a queued item is still added
 * later), the test says so. The starvation bound has its own test, {@link PriorityQueueStarvationTest}.
 */
class PriorityQueueTest {

    private static final int LOW = PriorityQueue.LOW;

    private final FakeTimeSource clock = new FakeTimeSource();
    private final CountingMetrics metrics = new CountingMetrics();
    private final PriorityQueue<String> queue = WorkQueue.<String>builder().name("test").timeSource(clock)
            .metrics(metrics).build();

    /** controller-runtime's fake metrics provider: adds, retries, and the depth gauge by priority. */
    static final class CountingMetrics implements WorkQueueMetrics {
        final AtomicInteger adds = new AtomicInteger();
        final AtomicInteger retries = new AtomicInteger();
        final Map<Integer, AtomicInteger> addsByPriority = new ConcurrentHashMap<>();
        final AtomicReference<QueueStats> stats = new AtomicReference<>();

        @Override
        public Recorder bind(String name, QueueStats queueStats) {
            stats.set(queueStats);
            return new Recorder() {
                @Override
                public void added(int priority) {
                    adds.incrementAndGet();
                    addsByPriority.computeIfAbsent(priority, p -> new AtomicInteger()).incrementAndGet();
                }

                @Override
                public void retried() {
                    retries.incrementAndGet();
                }
            };
        }

        int depth(int priority) {
            return stats.get().depth(priority);
        }
    }

    private String take() throws InterruptedException {
        Optional<String> item = queue.get();
        assertThat(item).as("an item").isPresent();
        return item.get();
    }

    @Test
    void anAddedItemIsHandedOut() throws Exception {
        queue.add("foo");
        assertThat(take()).isEqualTo("foo");
        assertThat(metrics.depth(0)).isZero();
        assertThat(metrics.adds).hasValue(1);
        assertThat(metrics.retries).hasValue(0);
    }

    @Test
    void itemsOfOnePriorityComeOutInTheOrderTheyWereAdded() throws Exception {
        queue.add("foo");
        queue.add("bar");
        assertThat(take()).isEqualTo("foo");
        assertThat(take()).isEqualTo("bar");
        assertThat(metrics.depth(0)).isZero();
        assertThat(metrics.adds).hasValue(2);
    }

    @Test
    void anItemInProgressIsNotHandedOutAgainButOthersAre() throws Exception {
        queue.add("foo");
        assertThat(take()).isEqualTo("foo");
        queue.add("foo");
        queue.add("bar");
        assertThat(take()).isEqualTo("bar");
        assertThat(queue.len()).as("foo waits for its done, not in the queue").isZero();
        assertThat(metrics.adds).hasValue(3);
    }

    /**
     * controller-runtime keeps such an item in its place and hands it out as soon as it is done;
     * ours keeps client-go's rule: it is queued when done, behind what was queued meanwhile.
     */
    @Test
    void anItemAddedWhileInProgressIsQueuedWhenDone() throws Exception {
        queue.add("foo");
        assertThat(take()).isEqualTo("foo");
        queue.add("foo");
        queue.add("bar");
        assertThat(take()).isEqualTo("bar");
        queue.add("baz");
        queue.done("foo");
        assertThat(take()).isEqualTo("baz");
        assertThat(take()).isEqualTo("foo");
        assertThat(metrics.adds).hasValue(4);
    }

    @Test
    void anItemWaitsOnceHoweverOftenItIsAdded() {
        queue.add("foo");
        queue.add("foo");
        assertThat(queue.len()).isEqualTo(1);
        assertThat(metrics.depth(0)).isEqualTo(1);
        assertThat(metrics.adds).hasValue(1);
    }

    @Test
    void anItemAddedWhileInProgressComesBackAfterDoneAtThePriorityOfThatAdd() throws Exception {
        queue.add("foo", LOW);
        assertThat(take()).isEqualTo("foo");
        queue.add("foo", 5);
        assertThat(queue.len()).isZero();
        queue.done("foo");
        assertThat(queue.len()).isEqualTo(1);
        assertThat(metrics.depth(5)).isEqualTo(1);
        assertThat(take()).isEqualTo("foo");
        assertThat(metrics.depth(5)).isZero();
        assertThat(metrics.adds).hasValue(2);
    }

    @Test
    void anItemKeepsTheHighestPriorityItWasAddedWith() {
        queue.add("foo", 1);
        queue.add("foo", 2);
        assertThat(metrics.depth(2)).isEqualTo(1);
        assertThat(metrics.depth(1)).isZero();
        assertThat(metrics.adds).hasValue(1);
    }

    @Test
    void aLowerPriorityDoesNotLowerAWaitingItem() {
        queue.add("foo", 2);
        queue.add("foo", 1);
        assertThat(metrics.depth(2)).isEqualTo(1);
        assertThat(metrics.depth(1)).isZero();
        assertThat(metrics.adds).hasValue(1);
    }

    @Test
    void anItemWhosePriorityRisesMovesToTheFront() throws Exception {
        queue.add("foo");
        queue.add("bar");
        queue.add("baz");
        queue.add("baz", 1);
        assertThat(take()).isEqualTo("baz");
        assertThat(queue.len()).isEqualTo(2);
        assertThat(metrics.depth(0)).isEqualTo(2);
        assertThat(metrics.depth(1)).isZero();
        assertThat(metrics.adds).hasValue(3);
    }

    @Test
    void anItemWhosePriorityRisesJoinsTheBackOfItsNewPriority() throws Exception {
        queue.add("foo", 0);
        queue.add("bar", 1);
        queue.add("foo", 1);
        assertThat(queue.len()).isEqualTo(2);
        assertThat(take()).isEqualTo("bar");
        assertThat(take()).isEqualTo("foo");
    }

    /**
     * controller-runtime keeps the earlier time and drops the later add; ours keeps client-go's
     * rule: the queued item is handed out now, and the delayed add still comes when due.
     */
    @Test
    void aDelayedAddDoesNotDelayAQueuedItem() throws Exception {
        queue.add("foo");
        queue.addAfter("foo", Duration.ofHours(1));
        assertThat(take()).isEqualTo("foo");
        assertThat(queue.len()).isZero();
        assertThat(metrics.adds).hasValue(1);
    }

    @Test
    void delayedItemsAreNotCountedUntilDue() {
        queue.addAfter("foo", Duration.ofMinutes(1));
        queue.add("baz");
        queue.addAfter("bar", Duration.ofMinutes(1));
        queue.add("bal");
        assertThat(queue.len()).isEqualTo(2);
        assertThat(metrics.depth(0)).isEqualTo(2);
        clock.advance(Duration.ofMinutes(1));
        assertThat(queue.len()).isEqualTo(4);
        assertThat(metrics.depth(0)).isEqualTo(4);
    }

    /** controller-runtime returns at once on shutdown; ours hands out what is queued first, then returns empty. */
    @Test
    void afterShutdownGetHandsOutWhatIsQueuedThenReturnsEmptyAndDelayedAddsAreDropped() throws Exception {
        queue.add("baz");
        queue.shutDown();
        queue.addAfter("foo", Duration.ofSeconds(1));
        assertThat(take()).isEqualTo("baz");
        assertThat(queue.get()).isEmpty();
        assertThat(queue.get()).isEmpty();
    }

    @Test
    void aDelayedItemAddedAgainAtOnceIsCountedOnceAsWaiting() throws Exception {
        queue.addAfter("foo", Duration.ofHours(1));
        assertThat(queue.len()).isZero();
        assertThat(metrics.depth(0)).isZero();
        queue.add("foo");
        assertThat(queue.len()).isEqualTo(1);
        assertThat(metrics.depth(0)).isEqualTo(1);
        assertThat(take()).isEqualTo("foo");
        assertThat(metrics.depth(0)).isZero();
    }

    @Test
    void aDelayedItemAddedAgainAtOnceWithAHigherPriorityWaitsAtThatPriority() throws Exception {
        queue.addAfter("foo", Duration.ofHours(1));
        queue.add("foo", 1);
        assertThat(queue.len()).isEqualTo(1);
        assertThat(metrics.depth(1)).isEqualTo(1);
        assertThat(take()).isEqualTo("foo");
        assertThat(metrics.depth(1)).isZero();
        assertThat(metrics.depth(0)).isZero();
    }

    /** {@code after} of -1 s, 0 and 1 s: each priority's items come out together, highest first, in order. */
    @ParameterizedTest
    @ValueSource(longs = {-1000, 0, 1000})
    void higherPrioritiesComeOutFirstEachInTheOrderAdded(long afterMillis) throws Exception {
        PriorityQueue<String> byPriority = WorkQueue.<String>builder().name("test").timeSource(clock).metrics(metrics)
                .oldestEvery(Integer.MAX_VALUE).build(); // the priority order alone, no oldest-first turns
        int[] priorities = {10, 5, 0, -5, -10};
        int perPriority = 200;
        for (int i = 0; i < perPriority; i++) {
            for (int priority : priorities) {
                byPriority.addAfter(priority + "-" + i, Duration.ofMillis(afterMillis), priority);
            }
        }
        if (afterMillis > 0) {
            assertThat(byPriority.len()).isZero();
            clock.advance(Duration.ofMillis(afterMillis));
        }
        for (int priority : priorities) {
            for (int i = 0; i < perPriority; i++) {
                String item = byPriority.get().orElseThrow();
                assertThat(item).isEqualTo(priority + "-" + i);
                byPriority.done(item);
            }
        }
        for (int priority : priorities) {
            assertThat(metrics.depth(priority)).isZero();
        }
    }

    @Test
    void aDelayedItemIsHandedOutOnlyOnceItsDelayHasPassed() throws Exception {
        queue.addAfter("foo", Duration.ofSeconds(1));
        clock.advance(Duration.ofMillis(999));
        assertThat(queue.len()).isZero();
        clock.advance(Duration.ofMillis(1));
        assertThat(take()).isEqualTo("foo");
        assertThat(metrics.adds).hasValue(1);
    }

    @Test
    void aHigherPriorityItemThatFallsDueGoesAheadOfALowerOneThatWasWaiting() throws Exception {
        queue.add("foo", -100);
        queue.add("prio"); // handed out and requeued at its priority, 0, after a second
        assertThat(take()).isEqualTo("prio");
        queue.addAfter("prio", Duration.ofSeconds(1));
        queue.done("prio");
        clock.advance(Duration.ofSeconds(1));
        assertThat(take()).isEqualTo("prio");
        assertThat(metrics.depth(-100)).isEqualTo(1);
        assertThat(metrics.depth(0)).isZero();
    }

    @Test
    void aWaitingWorkerGetsAnItemAsSoonAsItIsAdded() throws Exception {
        CountDownLatch got = new CountDownLatch(1);
        Thread worker = new Thread(() -> {
            try {
                queue.get().orElseThrow();
                got.countDown();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        worker.start();
        queue.addAfter("foo", Duration.ofMinutes(1));
        assertThat(got.await(50, TimeUnit.MILLISECONDS)).as("not before its delay").isFalse();
        queue.add("foo");
        assertThat(got.await(10, TimeUnit.SECONDS)).as("handed out at once when added without delay").isTrue();
        worker.join(10_000);
    }

    @Test
    void rateLimitedItemsEachWaitTheirOwnBackoff() throws Exception {
        RateLimiter<String> limiter = RateLimiter.exponential(Duration.ofMillis(5), Duration.ofSeconds(1000));
        for (int i = 0; i < 7; i++) {
            limiter.when("bar"); // bar's next backoff is 5 ms · 2^7 = 640 ms
        }
        PriorityQueue<String> limited = WorkQueue.<String>builder().name("test").timeSource(clock).metrics(metrics)
                .rateLimiter(limiter).build();
        limited.addRateLimited("foo");
        limited.addRateLimited("bar");
        assertThat(limited.len()).isZero();
        clock.advance(Duration.ofMillis(5));
        assertThat(limited.len()).isEqualTo(1);
        assertThat(limited.get()).contains("foo");
        clock.advance(Duration.ofMillis(634));
        assertThat(limited.len()).isZero();
        clock.advance(Duration.ofMillis(1));
        assertThat(limited.get()).contains("bar");
        assertThat(metrics.adds).hasValue(2);
        assertThat(metrics.retries).hasValue(2);
    }

    @Test
    void aRequeueKeepsThePriorityTheItemWasHandedOutAt() throws Exception {
        queue.add("initial", LOW);
        assertThat(take()).isEqualTo("initial");
        queue.addRateLimited("initial"); // a failed reconcile
        queue.done("initial");
        queue.add("fresh");
        clock.advance(Duration.ofSeconds(1));
        assertThat(queue.len()).isEqualTo(2); // moves what is due into the queue
        assertThat(metrics.depth(LOW)).as("the retry waits at its low priority").isEqualTo(1);
        assertThat(take()).isEqualTo("fresh");
        assertThat(take()).isEqualTo("initial");
        queue.addAfter("initial", Duration.ofMinutes(1)); // requeueAfter
        queue.done("initial");
        clock.advance(Duration.ofMinutes(1));
        assertThat(queue.len()).isEqualTo(1);
        assertThat(metrics.depth(LOW)).isEqualTo(1);
        assertThat(metrics.addsByPriority.get(LOW)).hasValue(3);
    }

    @Test
    void aRequeueOfAnItemTheQueueDoesNotHoldIsNormal() {
        queue.addAfter("stranger", Duration.ZERO);
        assertThat(metrics.depth(PriorityQueue.NORMAL)).isEqualTo(1);
    }

    @Test
    void aFreshAddWhileALowItemIsInProgressRequeuesItNormal() throws Exception {
        queue.add("a", LOW);
        assertThat(take()).isEqualTo("a");
        queue.add("a"); // a user's change while the initial reconcile runs
        queue.done("a");
        assertThat(metrics.depth(PriorityQueue.NORMAL)).isEqualTo(1);
    }

    @Test
    void aFifoQueueIgnoresPrioritiesForTheOrderButCountsThem() throws Exception {
        PriorityQueue<String> fifo = WorkQueue.<String>builder().name("test").timeSource(clock).metrics(metrics)
                .prioritized(false).build();
        fifo.add("low", LOW);
        fifo.add("normal");
        fifo.add("high", 10);
        fifo.add("low", 20); // raised, but keeps its place
        assertThat(metrics.depth(20)).isEqualTo(1);
        assertThat(metrics.depth(LOW)).isZero();
        assertThat(fifo.get()).contains("low");
        assertThat(fifo.get()).contains("normal");
        assertThat(fifo.get()).contains("high");
    }

    @Test
    void oldestEveryOneHandsOutInTheOrderQueued() throws Exception {
        PriorityQueue<String> oldestFirst = WorkQueue.<String>builder().name("test").timeSource(clock)
                .oldestEvery(1).build();
        oldestFirst.add("low", LOW);
        oldestFirst.add("high", 10);
        assertThat(oldestFirst.get()).contains("low");
        assertThat(oldestFirst.get()).contains("high");
    }
}
