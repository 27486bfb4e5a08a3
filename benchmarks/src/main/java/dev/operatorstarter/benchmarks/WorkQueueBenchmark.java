package dev.operatorstarter.benchmarks;

import dev.operatorstarter.workqueue.RateLimitingQueue;
import dev.operatorstarter.workqueue.WorkQueue;
import dev.operatorstarter.workqueue.WorkQueueMetrics;
import io.kubernetes.client.extended.workqueue.DefaultRateLimitingQueue;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;

/**
 * One add → get → done cycle per operation, as a controller's event handler and worker do, on our
 * rate-limiting queue and on the official client's ({@code DefaultRateLimitingQueue}). Ours runs
 * twice: {@code ours-metrics} with its metrics on a Prometheus registry, as the starter binds them
 * by default (every cycle then records a queue and a work duration), and {@code ours-no-metrics}
 * with {@link WorkQueueMetrics#NONE}; the official queue has no metrics. Each
 * thread cycles through its own 2^18 keys: a key added again while still queued (or while another
 * thread processes it) is coalesced with the earlier add, as work queues must, and a cycle would
 * then wait for an item that never comes; a ring that large makes the wait-for-coalesced-key
 * case practically impossible within a measurement.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class WorkQueueBenchmark {

    /** The operations a cycle needs. */
    interface Queue {
        void add(String item);

        String get() throws InterruptedException;

        void done(String item);

        void shutDown();
    }

    @Param({"ours-metrics", "ours-no-metrics", "official"})
    public String queue;

    private Queue subject;

    @Setup(Level.Trial)
    public void setUp() {
        subject = switch (queue) {
            case "ours-metrics" -> ours(WorkQueueMetrics.micrometer(new PrometheusMeterRegistry(PrometheusConfig.DEFAULT)));
            case "ours-no-metrics" -> ours(WorkQueueMetrics.NONE);
            case "official" -> official();
            default -> throw new IllegalArgumentException("queue=" + queue);
        };
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        subject.shutDown();
    }

    /** Each thread's own keys. */
    @State(Scope.Thread)
    public static class Keys {
        private static final AtomicInteger THREADS = new AtomicInteger();
        private static final int KEYS = 1 << 18;
        private final String[] keys = new String[KEYS];
        private int next;

        public Keys() {
            int thread = THREADS.incrementAndGet();
            for (int i = 0; i < keys.length; i++) {
                keys[i] = "ns-" + thread + "/object-" + i;
            }
        }

        String next() {
            return keys[next++ & (KEYS - 1)];
        }
    }

    @Benchmark
    @Threads(1)
    public String oneThread(Keys keys) throws InterruptedException {
        return cycle(keys);
    }

    @Benchmark
    @Threads(2)
    public String twoThreads(Keys keys) throws InterruptedException {
        return cycle(keys);
    }

    @Benchmark
    @Threads(4)
    public String fourThreads(Keys keys) throws InterruptedException {
        return cycle(keys);
    }

    private String cycle(Keys keys) throws InterruptedException {
        subject.add(keys.next());
        String item = subject.get();
        subject.done(item);
        return item;
    }

    private static Queue ours(WorkQueueMetrics metrics) {
        RateLimitingQueue<String> queue = WorkQueue.<String>builder().name("bench").metrics(metrics).build();
        return new Queue() {
            @Override
            public void add(String item) {
                queue.add(item);
            }

            @Override
            public String get() throws InterruptedException {
                return queue.get().orElseThrow();
            }

            @Override
            public void done(String item) {
                queue.done(item);
            }

            @Override
            public void shutDown() {
                queue.shutDown();
            }
        };
    }

    private static Queue official() {
        ExecutorService executor = Executors.newSingleThreadExecutor();
        DefaultRateLimitingQueue<String> queue = new DefaultRateLimitingQueue<>(executor);
        return new Queue() {
            @Override
            public void add(String item) {
                queue.add(item);
            }

            @Override
            public String get() throws InterruptedException {
                return queue.get();
            }

            @Override
            public void done(String item) {
                queue.done(item);
            }

            @Override
            public void shutDown() {
                queue.shutDown();
                executor.shutdownNow();
            }
        };
    }
}
