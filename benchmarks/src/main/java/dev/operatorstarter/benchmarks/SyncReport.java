package dev.operatorstarter.benchmarks;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.ToLongFunction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The sync breakdown section: {@link SyncProfile} in fresh JVMs over one namespace of ConfigMaps,
 * with a streaming list and with a paginated one, {@value #RUNS} runs each; timings are medians,
 * CPU shares are over the samples of every run's cold sync.
 */
final class SyncReport {

    private static final Logger log = LoggerFactory.getLogger(SyncReport.class);
    static final int RUNS = 3;
    private static final List<String> MODES = List.of("streaming", "paginated");

    private SyncReport() {
    }

    static String section(Workload workload, Path kubeconfig, Path work) throws Exception {
        List<List<SyncBreakdown>> byMode = new ArrayList<>();
        for (String mode : MODES) {
            List<SyncBreakdown> runs = new ArrayList<>();
            for (int run = 0; run < RUNS; run++) {
                Path recording = work.resolve("sync-" + mode + "-" + (run + 1) + ".jfr");
                String[] result = Forks.run(List.of("--add-exports", "java.management/sun.management=ALL-UNNAMED"),
                        SyncProfile.class, mode, workload.namespace(), kubeconfig.toString(),
                        String.valueOf(workload.listed()), recording.toString());
                SyncBreakdown breakdown = SyncBreakdown.read(result, recording);
                log.info("sync profile, {} run {}: cold {} ms, warm {} ms, bytes only {} ms", mode, run + 1,
                        breakdown.coldMillis(), breakdown.warmMillis(), breakdown.bytesMillis());
                runs.add(breakdown);
            }
            byMode.add(runs);
        }
        return markdown(workload, byMode);
    }

    static String markdown(Workload workload, List<List<SyncBreakdown>> byMode) {
        StringBuilder table = new StringBuilder("### Where a sync's time goes\n\n").append(String.format(
                "Our informer over %,d ConfigMaps (~1 KiB of data each), in a fresh JVM (`-Xmx2g -XX:+UseG1GC`) while "
                + "JFR records with its `profile` settings; %d runs per mode, medians. *Cold*: from making the client "
                + "until synced, as the scale curve measures it. *Warm*: the same again in the same JVM with a new "
                + "client and informer. *Bytes only*: the same requests once more, reading the bytes and decoding "
                + "nothing (what the API server and the connection cost any client). Class loading: the VM's own "
                + "counter during the cold sync. CPU shares: JFR execution samples of every thread during the cold syncs, "
                + "each in the category of the first frame from the top of its stack that one claims.%n%n",
                workload.listed(), RUNS));
        table.append("| | ").append(String.join(" | ", MODES.stream().map(mode -> mode + " list").toList()))
                .append(" |\n|---|").append("---|".repeat(MODES.size())).append('\n');
        row(table, "sync, cold JVM (ms)", byMode, SyncBreakdown::coldMillis);
        row(table, "sync, warm JVM (ms)", byMode, SyncBreakdown::warmMillis);
        row(table, "bytes only: first byte (ms)", byMode, SyncBreakdown::firstByteMillis);
        row(table, "bytes only: all bytes (ms)", byMode, SyncBreakdown::bytesMillis);
        row(table, "bytes read (KiB)", byMode, breakdown -> breakdown.bytes() >> 10);
        row(table, "class loading during the cold sync (ms, VM counter)", byMode, SyncBreakdown::classLoadingMillis);
        row(table, "classes loaded during the cold sync", byMode, SyncBreakdown::classesLoaded);
        row(table, "GC pauses during the cold sync (ms)", byMode, breakdown -> breakdown.gcPauses().toMillis());
        row(table, "JIT compilation during the cold sync (ms, compiler threads)", byMode,
                breakdown -> breakdown.compilation().toMillis());
        for (SyncBreakdown.Category category : SyncBreakdown.Category.values()) {
            table.append("| CPU: ").append(category.title()).append(" |");
            for (List<SyncBreakdown> runs : byMode) {
                int total = runs.stream().mapToInt(SyncBreakdown::totalSamples).sum();
                int in = runs.stream().mapToInt(run -> run.samples().getOrDefault(category, 0)).sum();
                table.append(String.format(" %.0f%% |", total == 0 ? 0.0 : 100.0 * in / total));
            }
            table.append('\n');
        }
        table.append("| CPU samples (all runs) |");
        for (List<SyncBreakdown> runs : byMode) {
            table.append(' ').append(runs.stream().mapToInt(SyncBreakdown::totalSamples).sum()).append(" |");
        }
        return table.append('\n').toString();
    }

    private static void row(StringBuilder table, String title, List<List<SyncBreakdown>> byMode,
            ToLongFunction<SyncBreakdown> value) {
        table.append("| ").append(title).append(" |");
        for (List<SyncBreakdown> runs : byMode) {
            long[] values = runs.stream().mapToLong(value).sorted().toArray();
            table.append(String.format(" %,d |", values[values.length / 2]));
        }
        table.append('\n');
    }
}
