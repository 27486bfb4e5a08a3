package dev.operatorstarter.benchmarks;

import dev.operatorstarter.workqueue.PriorityQueue;
import dev.operatorstarter.workqueue.WorkQueue;
import java.util.concurrent.TimeUnit;
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

/**
 * What the priority order costs a work queue: one add → get → done cycle per operation, one
 * thread, with {@code waiting} items queued at all times, on the queue in priority order (the
 * default) and in FIFO order. {@code priorities=mixed}: a quarter of the items at
 * {@link PriorityQueue#LOW}, like an initial list behind fresh changes (the priority order keeps
 * them in trees); {@code one}: all at {@code NORMAL}, a controller's usual state (it keeps them in
 * a deque, as the FIFO does). No metrics.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class WorkQueueOrderBenchmark {

    @Param({"priority", "fifo"})
    public String order;

    @Param({"1000"})
    public int waiting;

    @Param({"mixed", "one"})
    public String priorities;

    private PriorityQueue<Integer> queue;
    private int next;

    @Setup(Level.Trial)
    public void setUp() {
        queue = WorkQueue.<Integer>builder().name("order").prioritized(order.equals("priority")).build();
        for (next = 0; next < waiting; next++) {
            queue.add(next, priorityOf(next));
        }
    }

    private int priorityOf(int item) {
        return priorities.equals("mixed") && item % 4 == 0 ? PriorityQueue.LOW : PriorityQueue.NORMAL;
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        queue.shutDown();
    }

    @Benchmark
    public Integer addGetDone() throws InterruptedException {
        int item = next++;
        queue.add(item, priorityOf(item));
        Integer taken = queue.get().orElseThrow();
        queue.done(taken);
        return taken;
    }
}
