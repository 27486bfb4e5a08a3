package dev.operatorstarter.workqueue;

import static org.assertj.core.api.Assertions.assertThat;

import dev.operatorstarter.testing.FakeTimeSource;
import dev.operatorstarter.time.TimeSource;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.Condition;
import org.junit.jupiter.api.Test;

/**
 * The work queue's metrics on a fake clock: what each controller-runtime series reads with a
 * registry bound, and that without one the queue does not read the clock at all.
 */
class WorkQueueMetricsTest {

    private final FakeTimeSource fake = new FakeTimeSource();
    private final CountingTimeSource clock = new CountingTimeSource(fake);
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

    /** A time source that counts the readings of its monotonic clock. */
    private static final class CountingTimeSource implements TimeSource {
        private final TimeSource delegate;
        final AtomicLong readings = new AtomicLong();

        CountingTimeSource(TimeSource delegate) {
            this.delegate = delegate;
        }

        @Override
        public long nanoTime() {
            readings.incrementAndGet();
            return delegate.nanoTime();
        }

        @Override
        public Instant now() {
            return delegate.now();
        }

        @Override
        public void awaitUntil(Condition condition, long deadlineNanos) throws InterruptedException {
            delegate.awaitUntil(condition, deadlineNanos);
        }

        @Override
        public void sleepUntil(long deadlineNanos) throws InterruptedException {
            delegate.sleepUntil(deadlineNanos);
        }
    }

    private RateLimitingQueue<String> measured(String name) {
        return WorkQueue.<String>builder().name(name).timeSource(clock)
                .metrics(WorkQueueMetrics.micrometer(registry)).build();
    }

    private static String take(WorkQueue<String> queue) throws InterruptedException {
        Optional<String> item = queue.get();
        assertThat(item).as("an item").isPresent();
        return item.get();
    }

    private double counter(String name) {
        return registry.get(name).tags("name", "ctrl", "controller", "ctrl").counter().count();
    }

    /** {@code workqueue_depth} of priority 0, where {@code add} queues. */
    private double depth() {
        return registry.get("workqueue.depth").tags("name", "ctrl", "controller", "ctrl", "priority", "0").gauge().value();
    }

    private double gauge(String name) {
        return registry.get(name).tags("name", "ctrl", "controller", "ctrl").gauge().value();
    }

    private long timerCount(String name) {
        return registry.get(name).tags("name", "ctrl", "controller", "ctrl").timer().count();
    }

    private double timerMillis(String name) {
        return registry.get(name).tags("name", "ctrl", "controller", "ctrl").timer().totalTime(TimeUnit.MILLISECONDS);
    }

    @Test
    void withoutMetricsAddGetDoneAndLenNeverReadTheClock() throws Exception {
        RateLimitingQueue<String> queue = WorkQueue.<String>builder().name("plain").timeSource(clock).build();
        long before = clock.readings.get();
        queue.add("a");
        queue.add("a");
        queue.add("b");
        String first = take(queue);
        queue.add(first); // again while in progress
        queue.done(first); // queued once more
        assertThat(queue.len()).isEqualTo(2);
        for (int i = 0; i < 2; i++) {
            queue.done(take(queue));
        }
        queue.addAfter("now", Duration.ZERO);
        queue.done(take(queue));
        assertThat(clock.readings.get() - before).as("clock readings").isZero();
    }

    @Test
    void withMetricsAnAddGetDoneCycleReadsTheClockThreeTimes() throws Exception {
        RateLimitingQueue<String> queue = measured("ctrl");
        long before = clock.readings.get();
        for (int i = 0; i < 10; i++) {
            queue.add("item-" + i);
            queue.done(take(queue));
        }
        assertThat(clock.readings.get() - before).as("clock readings for 10 cycles").isEqualTo(30);
    }

    @Test
    void everySeriesExistsAtZeroOnceTheQueueIsBuilt() {
        measured("ctrl");
        assertThat(counter("workqueue.adds")).isZero();
        assertThat(counter("workqueue.retries")).isZero();
        assertThat(depth()).isZero();
        assertThat(timerCount("workqueue.queue.duration")).isZero();
        assertThat(timerCount("workqueue.work.duration")).isZero();
        assertThat(gauge("workqueue.unfinished.work")).isZero();
        assertThat(gauge("workqueue.longest.running.processor")).isZero();
    }

    @Test
    void addsCountWhatWasQueuedAndDepthWhatWaits() throws Exception {
        RateLimitingQueue<String> queue = measured("ctrl");
        queue.add("a");
        queue.add("a"); // collapsed: not counted
        queue.add("b");
        assertThat(counter("workqueue.adds")).isEqualTo(2);
        assertThat(depth()).isEqualTo(2);

        String a = take(queue);
        assertThat(depth()).as("in progress is not waiting").isEqualTo(1);
        queue.add(a); // while in progress: counted, not waiting until done
        queue.add(a); // collapsed with that one
        assertThat(counter("workqueue.adds")).isEqualTo(3);
        assertThat(depth()).isEqualTo(1);
        queue.done(a);
        assertThat(depth()).isEqualTo(2);

        queue.addAfter("later", Duration.ofSeconds(5));
        assertThat(counter("workqueue.adds")).as("a delayed item counts when it falls due").isEqualTo(3);
        fake.advance(Duration.ofSeconds(5));
        assertThat(queue.len()).isEqualTo(3);
        assertThat(counter("workqueue.adds")).isEqualTo(4);
        assertThat(depth()).isEqualTo(3);
    }

    @Test
    void queueAndWorkDurationsRunFromQueuedToTakenAndFromTakenToDone() throws Exception {
        RateLimitingQueue<String> queue = measured("ctrl");
        queue.add("a");
        fake.advance(Duration.ofMillis(30));
        String a = take(queue);
        assertThat(timerCount("workqueue.queue.duration")).isEqualTo(1);
        assertThat(timerMillis("workqueue.queue.duration")).isEqualTo(30);

        fake.advance(Duration.ofMillis(100));
        queue.add(a); // added again while in progress: its next wait starts at done
        fake.advance(Duration.ofMillis(400));
        queue.done(a);
        assertThat(timerCount("workqueue.work.duration")).isEqualTo(1);
        assertThat(timerMillis("workqueue.work.duration")).isEqualTo(500);

        fake.advance(Duration.ofMillis(7));
        queue.done(take(queue));
        assertThat(timerCount("workqueue.queue.duration")).isEqualTo(2);
        assertThat(timerMillis("workqueue.queue.duration")).as("30 ms, then 7 ms from done to taken").isEqualTo(37);
        assertThat(timerCount("workqueue.work.duration")).isEqualTo(2);
        assertThat(timerMillis("workqueue.work.duration")).isEqualTo(500);

        queue.addAfter("later", Duration.ofSeconds(2));
        fake.advance(Duration.ofSeconds(3));
        assertThat(queue.len()).isEqualTo(1);
        fake.advance(Duration.ofMillis(20));
        queue.done(take(queue));
        assertThat(timerMillis("workqueue.queue.duration")).as("a delayed item waits from when it is found due")
                .isEqualTo(57);
    }

    @Test
    void unfinishedWorkAddsUpTheItemsInProgressAndLongestRunningIsTheOldest() throws Exception {
        RateLimitingQueue<String> queue = measured("ctrl");
        queue.add("a");
        queue.add("b");
        queue.add("c");
        String a = take(queue);
        fake.advance(Duration.ofSeconds(3));
        String b = take(queue);
        fake.advance(Duration.ofSeconds(1));
        String c = take(queue);
        fake.advance(Duration.ofSeconds(1));
        assertThat(gauge("workqueue.unfinished.work")).as("5 + 2 + 1 s").isEqualTo(8.0);
        assertThat(gauge("workqueue.longest.running.processor")).isEqualTo(5.0);

        queue.done(a);
        assertThat(gauge("workqueue.unfinished.work")).isEqualTo(3.0);
        assertThat(gauge("workqueue.longest.running.processor")).isEqualTo(2.0);
        queue.done(c);
        assertThat(gauge("workqueue.unfinished.work")).isEqualTo(2.0);
        assertThat(gauge("workqueue.longest.running.processor")).isEqualTo(2.0);
        queue.done(b);
        assertThat(gauge("workqueue.unfinished.work")).isZero();
        assertThat(gauge("workqueue.longest.running.processor")).isZero();
    }

    @Test
    void retriesCountRateLimitedAddsUntilShutdown() {
        RateLimitingQueue<String> queue = measured("ctrl");
        queue.addRateLimited("a");
        queue.addRateLimited("a");
        queue.addAfter("b", Duration.ofSeconds(1)); // a requeue after a delay is not a retry
        assertThat(counter("workqueue.retries")).isEqualTo(2);
        queue.shutDown();
        queue.addRateLimited("c");
        assertThat(counter("workqueue.retries")).isEqualTo(2);
        assertThat(counter("workqueue.adds")).as("nothing fell due").isZero();
    }

    @Test
    void aRecorderOfItsOwnGetsDurationsInNanosecondsAndNoneKeepsOnlyTheDepth() throws Exception {
        List<String> events = new ArrayList<>();
        AtomicReference<WorkQueueMetrics.QueueStats> stats = new AtomicReference<>();
        RateLimitingQueue<String> recorded = WorkQueue.<String>builder().name("own").timeSource(clock)
                .metrics(new WorkQueueMetrics() {
                    @Override
                    public Recorder bind(String name, QueueStats queue) {
                        return new Recorder() {
                            @Override
                            public void added() {
                                events.add("added");
                            }

                            @Override
                            public void taken(long waitedNanos) {
                                events.add("taken " + waitedNanos);
                            }

                            @Override
                            public void finished(long heldNanos) {
                                events.add("finished " + heldNanos);
                            }

                            @Override
                            public void retried() {
                                events.add("retried");
                            }
                        };
                    }
                }).build();
        recorded.add("a");
        fake.advance(Duration.ofNanos(5));
        String a = take(recorded);
        fake.advance(Duration.ofNanos(7));
        recorded.done(a);
        recorded.addRateLimited("a");
        assertThat(events).containsExactly("added", "taken 5", "finished 7", "retried");

        RateLimitingQueue<String> unrecorded = WorkQueue.<String>builder().name("stats-only").timeSource(clock)
                .metrics(new WorkQueueMetrics() {
                    @Override
                    public Recorder bind(String name, QueueStats queue) {
                        stats.set(queue);
                        return Recorder.NONE;
                    }
                }).build();
        unrecorded.add("x");
        unrecorded.add("y");
        take(unrecorded);
        fake.advance(Duration.ofSeconds(1));
        assertThat(stats.get().depth()).isEqualTo(1);
        assertThat(stats.get().unfinishedWork()).as("no timestamps without a recorder").isZero();
        assertThat(stats.get().longestRunning()).isZero();
    }

    @Test
    void manyWorkersWithMetricsTimeEveryItemAndLeaveNothingInProgress() throws Exception {
        RateLimitingQueue<String> queue = WorkQueue.<String>builder().name("ctrl")
                .metrics(WorkQueueMetrics.micrometer(registry)).build();
        AtomicInteger taken = new AtomicInteger();
        List<Thread> workers = new ArrayList<>();
        for (int w = 0; w < 4; w++) {
            workers.add(new Thread(() -> {
                try {
                    for (Optional<String> item = queue.get(); item.isPresent(); item = queue.get()) {
                        taken.incrementAndGet();
                        queue.done(item.get());
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }));
        }
        workers.forEach(Thread::start);
        List<Thread> producers = new ArrayList<>();
        for (int p = 0; p < 4; p++) {
            int producer = p;
            producers.add(new Thread(() -> {
                for (int i = 0; i < 10_000; i++) {
                    queue.add("p" + producer + "-" + (i % 50));
                }
            }));
        }
        producers.forEach(Thread::start);
        for (Thread producer : producers) {
            producer.join();
        }
        assertThat(queue.shutDownWithDrain(Duration.ofSeconds(30))).isTrue();
        for (Thread worker : workers) {
            worker.join(10_000);
            assertThat(worker.isAlive()).isFalse();
        }
        assertThat(timerCount("workqueue.queue.duration")).isEqualTo(taken.get());
        assertThat(timerCount("workqueue.work.duration")).isEqualTo(taken.get());
        assertThat((long) counter("workqueue.adds")).as("every counted add was taken").isEqualTo(taken.get());
        assertThat(depth()).isZero();
        assertThat(gauge("workqueue.unfinished.work")).isZero();
        assertThat(gauge("workqueue.longest.running.processor")).isZero();
    }
}
