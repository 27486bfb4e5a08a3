package dev.operatorstarter.workqueue;

import dev.operatorstarter.testing.FakeTimeSource;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class WorkQueueTest {

    private final FakeTimeSource clock = new FakeTimeSource();
    private final RateLimitingQueue<String> queue = WorkQueue.<String>builder().name("test").timeSource(clock).build();

    private String take() throws InterruptedException {
        Optional<String> item = queue.get();
        assertThat(item).as("an item").isPresent();
        return item.get();
    }

    @Test
    void itemsComeOutInOrderAndOnceHoweverOftenTheyAreAdded() throws Exception {
        queue.add("a");
        queue.add("b");
        queue.add("a");
        assertThat(queue.len()).isEqualTo(2);
        assertThat(take()).isEqualTo("a");
        assertThat(take()).isEqualTo("b");
        assertThat(queue.len()).isZero();
    }

    @Test
    void anItemAddedWhileProcessedWaitsForDoneAndThenComesBackOnce() throws Exception {
        queue.add("a");
        assertThat(take()).isEqualTo("a");
        queue.add("a");
        queue.add("a");
        assertThat(queue.len()).as("not handed to a second worker while in progress").isZero();
        queue.done("a");
        assertThat(queue.len()).isEqualTo(1);
        assertThat(take()).isEqualTo("a");
        queue.done("a");
        assertThat(queue.len()).isZero();
    }

    @Test
    void afterShutdownAddsAreIgnoredQueuedItemsStillComeOutThenGetReturnsEmpty() throws Exception {
        queue.add("a");
        queue.shutDown();
        queue.add("b");
        assertThat(take()).isEqualTo("a");
        assertThat(queue.get()).isEmpty();
        assertThat(queue.isShuttingDown()).isTrue();
    }

    @Test
    void shutdownWakesAWaitingWorker() throws Exception {
        CountDownLatch returned = new CountDownLatch(1);
        Thread worker = new Thread(() -> {
            try {
                assertThat(queue.get()).isEmpty();
                returned.countDown();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        worker.start();
        await().until(() -> worker.getState() == Thread.State.WAITING);
        queue.shutDown();
        assertThat(returned.await(10, TimeUnit.SECONDS)).isTrue();
    }

    /** A drain running on a thread of its own, so the test can play the workers. */
    private final class Drain {
        final AtomicReference<Boolean> result = new AtomicReference<>();
        final Thread thread;

        Drain(Duration timeout) {
            thread = new Thread(() -> {
                try {
                    result.set(queue.shutDownWithDrain(timeout));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }, "drain");
            thread.start();
            await().pollInterval(Duration.ofMillis(2)).until(queue::isShuttingDown);
        }

        /** Waits until the drain is waiting (true) or has returned (false). */
        boolean isWaiting() {
            await().pollInterval(Duration.ofMillis(2)).until(() -> !thread.isAlive() || thread.getState() == Thread.State.WAITING
                    || thread.getState() == Thread.State.TIMED_WAITING);
            return thread.isAlive();
        }

        Boolean result() throws InterruptedException {
            thread.join(10_000);
            assertThat(thread.isAlive()).as("the drain returned").isFalse();
            return result.get();
        }
    }

    @Test
    void shutdownWithDrainWaitsForItemsInProgress() throws Exception {
        queue.add("a");
        queue.add("b");
        String first = take();
        String second = take();
        Drain drain = new Drain(Duration.ofMinutes(1));
        assertThat(queue.get()).as("a worker asking for more is told to stop").isEmpty();
        queue.done(first);
        assertThat(drain.isWaiting()).as("waiting for the second item").isTrue();
        queue.done(second);
        assertThat(drain.result()).isTrue();
    }

    @Test
    void shutdownWithDrainAlsoWaitsForItemsStillQueued() throws Exception {
        queue.add("a");
        queue.add("b");
        Drain drain = new Drain(Duration.ofMinutes(1));
        assertThat(drain.isWaiting()).as("two items are still queued").isTrue();
        assertThat(take()).as("queued items are still handed out").isEqualTo("a");
        queue.done("a");
        assertThat(drain.isWaiting()).as("one item is still queued").isTrue();
        assertThat(take()).isEqualTo("b");
        queue.done("b");
        assertThat(drain.result()).isTrue();
        assertThat(queue.get()).isEmpty();
    }

    @Test
    void anItemAddedAgainWhileInProgressIsProcessedOnceMoreBeforeTheDrainEnds() throws Exception {
        queue.add("a");
        String gotten = take();
        queue.add("a");
        Drain drain = new Drain(Duration.ofMinutes(1));
        assertThat(queue.get()).as("nothing is queued while a is in progress").isEmpty();
        queue.done(gotten);
        assertThat(drain.isWaiting()).as("a was queued again by done").isTrue();
        assertThat(take()).isEqualTo("a");
        queue.done("a");
        assertThat(drain.result()).isTrue();
        assertThat(queue.get()).isEmpty();
    }

    @Test
    void aDrainDropsDelayedItemsAndIgnoresAddsInsteadOfWaitingForThem() throws Exception {
        queue.addAfter("later", Duration.ofSeconds(1));
        queue.add("a");
        Drain drain = new Drain(Duration.ofMinutes(1));
        String item = take();
        queue.add("new");
        queue.addAfter("retry", Duration.ofMillis(1));
        queue.addRateLimited(item);
        queue.done(item);
        assertThat(drain.result()).isTrue();
        clock.advance(Duration.ofMinutes(1));
        assertThat(queue.len()).isZero();
        assertThat(queue.get()).isEmpty();
    }

    @Test
    void shutdownWithoutDrainDoesNotWaitForItemsInProgress() {
        queue.add("a");
        queue.add("b");
        assertThat(queue.len()).isEqualTo(2);
        queue.shutDown(); // returns although nothing is done
        assertThat(queue.isShuttingDown()).isTrue();
    }

    @Test
    void shutdownEndsADrainInProgressWithoutWaitingForIt() throws Exception {
        queue.add("a");
        take();
        Drain drain = new Drain(Duration.ofMinutes(1));
        assertThat(drain.isWaiting()).isTrue();
        queue.shutDown();
        assertThat(drain.result()).as("ended, not drained").isFalse();
    }

    @Test
    void aDrainGivesUpAtItsTimeoutWhileAnItemIsInProgress() throws Exception {
        queue.add("a");
        take();
        Drain drain = new Drain(Duration.ofSeconds(10));
        assertThat(drain.isWaiting()).isTrue();
        clock.advance(Duration.ofSeconds(9));
        assertThat(drain.isWaiting()).isTrue();
        clock.advance(Duration.ofSeconds(1));
        assertThat(drain.result()).isFalse();
    }

    @Test
    void aDrainGivesUpAtItsTimeoutWhenNoWorkerTakesTheQueuedItems() throws Exception {
        queue.add("a");
        Drain drain = new Drain(Duration.ofSeconds(10));
        assertThat(drain.isWaiting()).isTrue();
        clock.advance(Duration.ofSeconds(10));
        assertThat(drain.result()).isFalse();
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(booleans = {false, true})
    void workersThatAddEachItemAgainWhileProcessingItEndWithAnEmptyQueue(boolean drain) throws Exception {
        RateLimitingQueue<Integer> real = WorkQueue.<Integer>builder().name("readd").build();
        for (int i = 0; i < 50; i++) {
            real.add(i);
        }
        Set<Integer> processed = ConcurrentHashMap.newKeySet();
        List<Thread> workers = new ArrayList<>();
        for (int w = 0; w < 10; w++) {
            workers.add(new Thread(() -> {
                Map<Integer, Integer> seen = new java.util.HashMap<>();
                try {
                    for (Optional<Integer> item = real.get(); item.isPresent(); item = real.get()) {
                        if (seen.merge(item.get(), 1, Integer::sum) < 2) {
                            real.add(item.get());
                        }
                        processed.add(item.get());
                        real.done(item.get());
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }));
        }
        workers.forEach(Thread::start);
        if (drain) {
            assertThat(real.shutDownWithDrain(Duration.ofSeconds(10))).isTrue();
            assertThat(processed).as("every queued item was handed out before the drain ended").hasSize(50);
        } else {
            real.shutDown();
        }
        for (Thread worker : workers) {
            worker.join(10_000);
            assertThat(worker.isAlive()).isFalse();
        }
        assertThat(real.len()).isZero();
    }

    @Test
    void addAfterMakesAnItemAvailableOnlyOnceItsDelayHasPassed() throws Exception {
        queue.addAfter("later", Duration.ofSeconds(10));
        assertThat(queue.len()).isZero();
        clock.advance(Duration.ofSeconds(9));
        assertThat(queue.len()).isZero();
        clock.advance(Duration.ofSeconds(1));
        assertThat(queue.len()).isEqualTo(1);
        assertThat(take()).isEqualTo("later");
    }

    @Test
    void aWorkerWaitingInGetReceivesADelayedItemWhenItsTimeComes() throws Exception {
        List<String> got = new CopyOnWriteArrayList<>();
        Thread worker = worker(got);
        queue.addAfter("x", Duration.ofMinutes(5));
        await().during(Duration.ofMillis(100)).atMost(Duration.ofSeconds(5)).until(got::isEmpty);
        clock.advance(Duration.ofMinutes(5));
        await().until(() -> got.equals(List.of("x")));
    }

    @Test
    void idleWorkersEachReceiveADelayedItemWhenItsTimeComes() throws Exception {
        List<String> got = new CopyOnWriteArrayList<>();
        List<Thread> workers = new ArrayList<>();
        for (int w = 0; w < 3; w++) {
            workers.add(worker(got)); // each worker holds its item: the others must wake
        }
        await().until(() -> workers.stream().allMatch(worker -> worker.getState() == Thread.State.WAITING));
        queue.addAfter("x", Duration.ofMinutes(5));
        queue.addAfter("y", Duration.ofMinutes(1));
        queue.addAfter("z", Duration.ofMinutes(3));
        await().until(() -> clock.hasWaiterWithin(Duration.ofMinutes(1)));
        clock.advance(Duration.ofMinutes(5));
        await().until(() -> got.size() == 3);
        assertThat(got).containsExactlyInAnyOrder("x", "y", "z");
        for (Thread worker : workers) {
            worker.join(10_000);
            assertThat(worker.isAlive()).isFalse();
        }
    }

    @Test
    void anItemThatDoneQueuesAgainWakesAWaitingWorker() throws Exception {
        queue.add("a");
        String a = take();
        List<String> got = new CopyOnWriteArrayList<>();
        Thread worker = worker(got);
        await().until(() -> worker.getState() == Thread.State.WAITING);
        queue.add(a);
        assertThat(worker.getState()).as("not while a is in progress").isEqualTo(Thread.State.WAITING);
        queue.done(a);
        await().until(() -> got.equals(List.of("a")));
    }

    @Test
    void addingADelayedItemAgainKeepsTheEarlierTime() throws Exception {
        queue.addAfter("x", Duration.ofSeconds(10));
        queue.addAfter("x", Duration.ofSeconds(2));
        queue.addAfter("x", Duration.ofSeconds(30));
        clock.advance(Duration.ofSeconds(2));
        assertThat(queue.len()).isEqualTo(1);
        take();
        queue.done("x");
        clock.advance(Duration.ofMinutes(1));
        assertThat(queue.len()).as("the later times were dropped for the earlier one").isZero();
    }

    @Test
    void noDelayedItemIsEverDroppedHoweverManyWait() throws Exception {
        Random random = new Random(42);
        for (int i = 0; i < 20_000; i++) {
            queue.addAfter("item-" + i, Duration.ofMillis(1 + random.nextInt(60_000)));
        }
        clock.advance(Duration.ofMinutes(1));
        assertThat(queue.len()).isEqualTo(20_000);
        Set<String> seen = ConcurrentHashMap.newKeySet();
        for (int i = 0; i < 20_000; i++) {
            String item = take();
            seen.add(item);
            queue.done(item);
        }
        assertThat(seen).hasSize(20_000);
    }

    @Test
    void delayedItemsComeOutInTheOrderTheyAreDue() throws Exception {
        queue.addAfter("third", Duration.ofSeconds(3));
        queue.addAfter("first", Duration.ofSeconds(1));
        queue.addAfter("second", Duration.ofSeconds(2));
        clock.advance(Duration.ofSeconds(3));
        assertThat(List.of(take(), take(), take())).containsExactly("first", "second", "third");
    }

    @Test
    void addRateLimitedDelaysByTheLimiterAndForgetResetsIt() throws Exception {
        queue.addRateLimited("a");
        assertThat(queue.numRequeues("a")).isEqualTo(1);
        assertThat(queue.len()).isZero();
        clock.advance(Duration.ofMillis(5));
        assertThat(queue.len()).isEqualTo(1);
        take();
        queue.done("a");
        queue.addRateLimited("a");
        clock.advance(Duration.ofMillis(5));
        assertThat(queue.len()).as("the second retry waits 10 ms").isZero();
        clock.advance(Duration.ofMillis(5));
        assertThat(queue.len()).isEqualTo(1);
        queue.forget("a");
        assertThat(queue.numRequeues("a")).isZero();
    }

    @Test
    void manyProducersAndWorkersNeverProcessAnItemTwiceAtOnceAndNeverLoseAnAdd() throws Exception {
        RateLimitingQueue<String> real = WorkQueue.<String>builder().name("stress").build();
        int keys = 20;
        AtomicLong version = new AtomicLong();
        Map<String, Long> lastAdded = new ConcurrentHashMap<>();
        Map<String, Long> lastSeenStart = new ConcurrentHashMap<>();
        Set<String> inProgress = ConcurrentHashMap.newKeySet();
        AtomicInteger overlaps = new AtomicInteger();
        List<Thread> workers = new ArrayList<>();
        for (int w = 0; w < 4; w++) {
            workers.add(new Thread(() -> {
                try {
                    while (true) {
                        Optional<String> item = real.get();
                        if (item.isEmpty()) {
                            return;
                        }
                        String key = item.get();
                        if (!inProgress.add(key)) {
                            overlaps.incrementAndGet();
                        }
                        lastSeenStart.put(key, version.get());
                        Thread.onSpinWait();
                        inProgress.remove(key);
                        real.done(key);
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }));
        }
        workers.forEach(Thread::start);
        List<Thread> producers = new ArrayList<>();
        for (int p = 0; p < 8; p++) {
            int producer = p;
            producers.add(new Thread(() -> {
                Random random = new Random(producer);
                for (int i = 0; i < 20_000; i++) {
                    String key = "k" + random.nextInt(keys);
                    long v = version.incrementAndGet();
                    lastAdded.merge(key, v, Math::max);
                    if (i % 10 == 0) {
                        real.addAfter(key, Duration.ofMillis(random.nextInt(3)));
                    } else {
                        real.add(key);
                    }
                }
            }));
        }
        producers.forEach(Thread::start);
        for (Thread producer : producers) {
            producer.join();
        }
        // Every key must be processed again after its last add.
        await().atMost(Duration.ofSeconds(30)).until(() -> lastAdded.entrySet().stream()
                .allMatch(e -> lastSeenStart.getOrDefault(e.getKey(), -1L) >= e.getValue()));
        assertThat(real.shutDownWithDrain(Duration.ofSeconds(10))).isTrue();
        for (Thread worker : workers) {
            worker.join(10_000);
        }
        assertThat(overlaps).as("an item processed by two workers at once").hasValue(0);
    }

    @Test
    void metricsCountAddsRetriesAndTimesAndReadDepthAndWorkInProgress() throws Exception {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        RateLimitingQueue<String> measured = WorkQueue.<String>builder().name("ctrl").timeSource(clock)
                .metrics(WorkQueueMetrics.micrometer(registry)).build();
        measured.add("a");
        measured.add("a");
        measured.add("b");
        assertThat(registry.get("workqueue.adds").tags("name", "ctrl", "controller", "ctrl").counter().count())
                .isEqualTo(2);
        assertThat(registry.get("workqueue.depth").tag("priority", "0").gauge().value()).isEqualTo(2);
        clock.advance(Duration.ofMillis(30));
        String item = measured.get().orElseThrow();
        clock.advance(Duration.ofSeconds(2));
        assertThat(registry.get("workqueue.unfinished.work").gauge().value()).isEqualTo(2.0);
        assertThat(registry.get("workqueue.longest.running.processor").gauge().value()).isEqualTo(2.0);
        measured.done(item);
        measured.addRateLimited("c");
        assertThat(registry.get("workqueue.retries").counter().count()).isEqualTo(1);
        assertThat(registry.get("workqueue.queue.duration").timer().totalTime(TimeUnit.MILLISECONDS)).isEqualTo(30);
        assertThat(registry.get("workqueue.work.duration").timer().totalTime(TimeUnit.SECONDS)).isEqualTo(2);
        assertThat(registry.get("workqueue.unfinished.work").gauge().value()).isZero();
    }

    @Test
    void aNewQueueOfTheSameNameTakesOverItsGauges() {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        RateLimitingQueue<String> first = WorkQueue.<String>builder().name("ctrl").timeSource(clock)
                .metrics(WorkQueueMetrics.micrometer(registry)).build();
        first.add("a");
        RateLimitingQueue<String> second = WorkQueue.<String>builder().name("ctrl").timeSource(clock)
                .metrics(WorkQueueMetrics.micrometer(registry)).build();
        second.add("x");
        second.add("y");
        System.gc();
        assertThat(registry.get("workqueue.depth").tag("priority", "0").gauge().value()).isEqualTo(2);
        assertThat(first.len()).isEqualTo(1);
    }

    /** A started thread that takes one item from the queue into {@code got} and keeps it (never calls done). */
    private Thread worker(List<String> got) {
        Thread worker = new Thread(() -> {
            try {
                queue.get().ifPresent(got::add);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        worker.start();
        return worker;
    }
}
