package dev.operatorstarter.benchmarks;

import com.sun.management.OperatingSystemMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Watch throughput round after round in one JVM: the first round is what {@link WatchRun} measures
 * (a fresh JVM), the later ones what the same informer path costs once warm. Each round starts a new
 * informer of one subject on an in-process {@link WatchServer} and waits for its events; it prints
 * the events per second (first event to last), and the CPU the round took, per event: the whole
 * process, and split by thread into the subject's threads, the server's, and the rest (JIT
 * compilers, GC and other VM threads, which no Java thread accounts for).
 *
 * <p>Usage: {@code WatchRounds <ours|official> <events> <rounds> [stream file]}; {@code WatchRounds write
 * <events> <file>} writes the stream of {@code events} events to a file. Prints a line per round, then
 * {@code RESULT <first round's events/s> <median of the last half's events/s>}.
 */
public final class WatchRounds {

    private WatchRounds() {
    }

    public static void main(String[] args) throws Exception {
        if (args[0].equals("write")) {
            Files.write(Path.of(args[2]), DecodeBenchmark.watchStream(Integer.parseInt(args[1])));
            return;
        }
        WatchSubject subject = WatchSubject.parse(args[0]);
        int events = Integer.parseInt(args[1]);
        int rounds = Integer.parseInt(args[2]);
        // the stream from a file when one is named, so that this JVM compiles nothing the subject does not
        byte[] stream = args.length > 3 ? Files.readAllBytes(Path.of(args[3])) : DecodeBenchmark.watchStream(events);
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        OperatingSystemMXBean os = (OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        long[] rates = new long[rounds];
        try (WatchServer server = WatchServer.start()) {
            Path kubeconfig = server.kubeconfig(Files.createTempFile("watch-rounds", ".yaml"),
                    WatchTransport.HTTP_STREAMING);
            String jfr = System.getProperty("watchrounds.jfr");
            int recordFrom = Integer.getInteger("watchrounds.jfrFrom", 1);
            jdk.jfr.Recording recording = null;
            for (int round = 0; round < rounds; round++) {
                if (jfr != null && round + 1 == recordFrom) {
                    recording = new jdk.jfr.Recording(jdk.jfr.Configuration.getConfiguration("profile"));
                    recording.start();
                }
                server.serve(stream);
                CountDownLatch all = new CountDownLatch(events);
                AtomicLong first = new AtomicLong();
                AtomicLong last = new AtomicLong();
                Runnable onAdd = () -> {
                    long now = System.nanoTime();
                    first.compareAndSet(0, now);
                    last.set(now);
                    all.countDown();
                };
                Map<String, Long> before = cpuByRole(threads);
                long processBefore = os.getProcessCpuTime();
                long started = System.nanoTime();
                AutoCloseable informer = switch (subject) {
                    case OURS -> WatchRun.ours(kubeconfig, onAdd)::close;
                    case OFFICIAL -> WatchRun.official(kubeconfig, onAdd)::stopAllRegisteredInformers;
                    default -> throw new IllegalArgumentException("ours or official, not " + subject);
                };
                if (!all.await(5, TimeUnit.MINUTES)) {
                    throw new IllegalStateException(subject + " received " + (events - all.getCount()) + " of " + events);
                }
                long ended = System.nanoTime();
                long process = os.getProcessCpuTime() - processBefore;
                Map<String, Long> after = cpuByRole(threads);
                informer.close();
                rates[round] = (long) (events / ((last.get() - first.get()) / 1e9));
                StringBuilder line = new StringBuilder(String.format("round %d: %,d events/s (first to last), %.0f ms "
                        + "from start to last; CPU per event: process %.2f us", round + 1, rates[round],
                        (ended - started) / 1e6, process / 1e3 / events));
                long threadsTotal = 0;
                for (Map.Entry<String, Long> entry : after.entrySet()) {
                    long used = entry.getValue() - before.getOrDefault(entry.getKey(), 0L);
                    threadsTotal += used;
                    line.append(String.format(", %s %.2f", entry.getKey(), used / 1e3 / events));
                }
                line.append(String.format(", VM (JIT, GC) %.2f", (process - threadsTotal) / 1e3 / events));
                System.out.println(line);
                System.gc();
            }
            if (recording != null) {
                recording.stop();
                recording.dump(Path.of(jfr));
            }
        }
        long[] warm = java.util.Arrays.copyOfRange(rates, rounds / 2, rounds);
        java.util.Arrays.sort(warm);
        System.out.println("RESULT " + rates[0] + " " + warm[warm.length / 2]);
        System.out.flush();
        Runtime.getRuntime().halt(0);
    }

    /** CPU nanoseconds of the live threads, by role: the thread name's first word, servers together. */
    private static Map<String, Long> cpuByRole(ThreadMXBean threads) {
        Map<String, Long> byRole = new TreeMap<>();
        for (long id : threads.getAllThreadIds()) {
            ThreadInfo info = threads.getThreadInfo(id);
            long cpu = threads.getThreadCpuTime(id);
            if (info == null || cpu < 0) {
                continue;
            }
            byRole.merge(role(info.getThreadName()), cpu, Long::sum);
        }
        return byRole;
    }

    private static String role(String thread) {
        if (thread.startsWith("watch-server") || thread.startsWith("HTTP-Dispatcher")) {
            return "server";
        }
        if (thread.equals("main")) {
            return "main";
        }
        if (thread.startsWith("informer-")) {
            return "informer-" + thread.substring(thread.lastIndexOf('-') + 1);
        }
        String[] words = thread.split("[- #]");
        return words.length == 0 ? thread : words[0];
    }
}
