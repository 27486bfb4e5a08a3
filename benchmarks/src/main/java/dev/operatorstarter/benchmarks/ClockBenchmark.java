package dev.operatorstarter.benchmarks;

import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Threads;

/**
 * The floor under any queue that times each item: the three monotonic clock reads one add → get →
 * done cycle needs for controller-runtime's queue and work durations (at add, at get, at done). The
 * suite sets it beside {@link WorkQueueBenchmark}'s one-thread figures, so the table shows how much
 * of a timed cycle the clock alone costs on the machine that ran it.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class ClockBenchmark {

    @Benchmark
    @Threads(1)
    public long threeClockReads() {
        long added = System.nanoTime();
        long taken = System.nanoTime();
        long done = System.nanoTime();
        return (taken - added) + (done - taken);
    }
}
