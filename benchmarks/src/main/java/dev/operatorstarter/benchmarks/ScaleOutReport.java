package dev.operatorstarter.benchmarks;

import java.time.Duration;
import java.util.List;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * {@link ShardingScaleOut}'s figures and their tables: for each replica count, the reconciles per
 * second of one wave of changes across the replicas, the balance of the objects, and each
 * replica's heap.
 *
 * @param objects the sharded objects
 * @param reconcileCost what one reconcile costs (a sleep)
 * @param workers workers per replica
 * @param runs one per replica count, in the order run
 */
record ScaleOutReport(int objects, Duration reconcileCost, int workers, List<Run> runs) {

    ScaleOutReport {
        runs = List.copyOf(runs);
    }

    /**
     * One replica's part in a run.
     *
     * @param id its member id
     * @param leader whether it led the operator's election (and so ran the assigner)
     * @param objects the objects in its share's cache
     * @param wave its reconciles of the wave
     * @param retainedHeap heap used after a full GC once the wave ended, minus the same before its client was made
     */
    record Replica(String id, boolean leader, int objects, ReplicaStatus.Tally wave, long retainedHeap) {

        /** Its reconciles of the wave over the time from its first one's start to its last one's end. */
        double perSecond() {
            return rate(wave.count(), wave.lastEnd() - wave.firstStart());
        }
    }

    /**
     * The measurement with one replica count.
     *
     * @param replicas every replica, in launch order
     * @param settled from the first object's creation until every object had a token, every share
     *     was in its replica's cache and reconciled once
     */
    record Run(List<Replica> replicas, Duration settled) {

        Run {
            replicas = List.copyOf(replicas);
            if (replicas.isEmpty()) {
                throw new IllegalArgumentException("a run needs at least one replica");
            }
        }

        int reconciles() {
            return replicas.stream().mapToInt(replica -> replica.wave().count()).sum();
        }

        /** From the first reconcile's start of the wave, on any replica, to the last one's end. */
        long waveMillis() {
            long first = replicas.stream().mapToLong(replica -> replica.wave().firstStart()).min().orElseThrow();
            long last = replicas.stream().mapToLong(replica -> replica.wave().lastEnd()).max().orElseThrow();
            return last - first;
        }

        /** The wave's reconciles across the replicas per second. */
        double perSecond() {
            return rate(reconciles(), waveMillis());
        }

        /**
         * The replicas' own rates added up: what they reconcile per second while every one is busy,
         * whereas {@link #perSecond()} also waits for the largest share to finish.
         */
        double perSecondWhileBusy() {
            return replicas.stream().mapToDouble(Replica::perSecond).sum();
        }

        /** The largest share over the smallest. */
        double balance() {
            int max = replicas.stream().mapToInt(Replica::objects).max().orElseThrow();
            int min = replicas.stream().mapToInt(Replica::objects).min().orElseThrow();
            return min == 0 ? Double.POSITIVE_INFINITY : (double) max / min;
        }
    }

    private static double rate(int count, long millis) {
        return millis <= 0 ? 0 : count * 1000.0 / millis;
    }

    /** Reconciles per second if every worker of {@code replicas} replicas did nothing but sleep. */
    double ideal(int replicas) {
        return replicas * workers * 1000.0 / reconcileCost.toMillis();
    }

    /** The summary table, one row per replica count, then one row per replica. */
    String markdown() {
        StringBuilder out = new StringBuilder("| replicas | reconciles/s | ideal | of ideal | the replicas' own, added up "
                + "| the wave | objects per replica | largest ÷ smallest share | retained heap per replica (MiB) "
                + "| assigned and reconciled once after |\n|---|---|---|---|---|---|---|---|---|---|\n");
        for (Run run : runs) {
            int replicas = run.replicas().size();
            out.append(String.format("| %d | **%.1f** | %.0f | %.0f%% | %.1f | %,d in %.1f s | %s | %.2f | %s | %.1f s |%n",
                    replicas, run.perSecond(), ideal(replicas), 100 * run.perSecond() / ideal(replicas),
                    run.perSecondWhileBusy(), run.reconciles(), run.waveMillis() / 1000.0, join(run, replica -> String.format("%,d", replica.objects())),
                    run.balance(), join(run, replica -> mib(replica.retainedHeap()) + (replica.leader() ? "*" : "")),
                    run.settled().toMillis() / 1000.0));
        }
        out.append("\n| replicas | replica | objects | reconciles in the wave | its first to its last | reconciles/s "
                + "| retained heap |\n|---|---|---|---|---|---|---|\n");
        for (Run run : runs) {
            for (Replica replica : run.replicas()) {
                out.append(String.format("| %d | %s%s | %,d | %,d | %.1f s | %.1f | %s MiB |%n", run.replicas().size(),
                        replica.id(), replica.leader() ? " (leads)" : "", replica.objects(), replica.wave().count(),
                        (replica.wave().lastEnd() - replica.wave().firstStart()) / 1000.0, replica.perSecond(),
                        mib(replica.retainedHeap())));
            }
        }
        return out.toString();
    }

    private static String join(Run run, Function<Replica, String> cell) {
        return run.replicas().stream().map(cell).collect(Collectors.joining(" / "));
    }

    private static String mib(long bytes) {
        return String.format("%.1f", bytes / (1024.0 * 1024.0));
    }
}
