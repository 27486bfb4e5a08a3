package dev.operatorstarter.benchmarks;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import javax.management.JMException;
import javax.management.ObjectName;

/**
 * The heap's class histogram (the JVM's {@code GC.class_histogram}: live objects after a full GC,
 * per class) and the difference of two: what a client with its synced informer added to the heap,
 * class by class.
 *
 * <p>{@link InformerRun} writes one before making the client and one once synced when
 * {@link Dump#ENVIRONMENT} names a directory; {@link #main} turns such a pair into a Markdown table:
 * {@code HeapHistogram <before> <after> [rows]}.
 */
public final class HeapHistogram {

    private HeapHistogram() {
    }

    /** One class's live instances and their bytes. */
    record Row(String className, long instances, long bytes) {
    }

    /** Writes histograms (and with {@link #DUMPS_ENVIRONMENT} heap dumps) of this JVM into a directory, or nowhere. */
    static final class Dump {

        /** The environment variable naming the directory histograms are written to. */
        static final String ENVIRONMENT = "BENCHMARKS_HEAP_HISTOGRAMS";

        /**
         * Beside {@link #ENVIRONMENT}, names a subject (as {@link Subject} spells it, e.g. {@code ours}): its
         * JVMs write a heap dump of live objects ({@code .hprof}) too, for the paths from the roots that
         * a histogram does not show.
         */
        static final String DUMPS_ENVIRONMENT = "BENCHMARKS_HEAP_DUMPS";

        private final Path directory;
        private final String name;
        private final boolean heapDump;

        private Dump(Path directory, String name, boolean heapDump) {
            this.directory = directory;
            this.name = name;
            this.heapDump = heapDump;
        }

        static Dump fromEnvironment(Subject subject, Workload.Kind kind, boolean metadata, String namespace) {
            String directory = System.getenv(ENVIRONMENT);
            return new Dump(directory == null || directory.isBlank() ? null : Path.of(directory),
                    subject.name().toLowerCase(Locale.ROOT) + "-" + kind.resource() + (metadata ? "-metadata" : "")
                            + "-" + namespace + "-" + ProcessHandle.current().pid(),
                    subject.name().equalsIgnoreCase(System.getenv(DUMPS_ENVIRONMENT)));
        }

        /** Writes the histogram as {@code <name>-<when>.txt}, if a directory was named. */
        void write(String when) throws IOException, JMException {
            if (directory == null) {
                return;
            }
            Files.createDirectories(directory);
            Files.writeString(directory.resolve(name + "-" + when + ".txt"), histogram());
            if (heapDump) {
                Path dump = directory.resolve(name + "-" + when + ".hprof");
                Files.deleteIfExists(dump);
                ManagementFactory.getPlatformMXBean(com.sun.management.HotSpotDiagnosticMXBean.class)
                        .dumpHeap(dump.toString(), true);
            }
        }
    }

    /** This JVM's class histogram as {@code jcmd <pid> GC.class_histogram} prints it (after a full GC). */
    static String histogram() throws JMException {
        return (String) ManagementFactory.getPlatformMBeanServer().invoke(
                new ObjectName("com.sun.management:type=DiagnosticCommand"), "gcClassHistogram",
                new Object[] {new String[0]}, new String[] {String[].class.getName()});
    }

    /** The rows of a {@code GC.class_histogram} output, by class name. */
    static Map<String, Row> parse(String histogram) {
        Map<String, Row> rows = new HashMap<>();
        for (String line : histogram.split("\n")) {
            String[] parts = line.trim().split("\\s+");
            // " 1:  12345  678900  java.lang.String (java.base@17)"
            if (parts.length < 4 || !parts[0].endsWith(":")) {
                continue;
            }
            rows.put(parts[3], new Row(parts[3], Long.parseLong(parts[1]), Long.parseLong(parts[2])));
        }
        return rows;
    }

    /** {@code after} minus {@code before}, class by class, the largest growth first. */
    static List<Row> difference(Map<String, Row> before, Map<String, Row> after) {
        List<Row> rows = new ArrayList<>();
        for (Row row : after.values()) {
            Row was = before.getOrDefault(row.className(), new Row(row.className(), 0, 0));
            rows.add(new Row(row.className(), row.instances() - was.instances(), row.bytes() - was.bytes()));
        }
        for (Row row : before.values()) {
            if (!after.containsKey(row.className())) {
                rows.add(new Row(row.className(), -row.instances(), -row.bytes()));
            }
        }
        rows.sort(Comparator.comparingLong(Row::bytes).reversed());
        return rows;
    }

    /** A Markdown table of the {@code limit} largest rows, the rest summed in one row, and the total. */
    static String markdown(List<Row> rows, int limit) {
        return CacheHistogram.table("class", "instances", rows.stream()
                .map(row -> new CacheHistogram.Row(row.className(), row.instances(), row.bytes())).toList(), limit);
    }

    public static void main(String[] args) throws IOException {
        if (args.length < 2) {
            throw new IllegalArgumentException("usage: HeapHistogram <before> <after> [rows]");
        }
        List<Row> rows = difference(parse(Files.readString(Path.of(args[0]))), parse(Files.readString(Path.of(args[1]))));
        System.out.print(markdown(rows, args.length > 2 ? Integer.parseInt(args[2]) : 25));
    }
}
