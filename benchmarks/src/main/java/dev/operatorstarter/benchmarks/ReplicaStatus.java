package dev.operatorstarter.benchmarks;

import java.util.HashMap;
import java.util.Map;

/**
 * What one {@link ShardReplica} answers to {@code status <wave>}: its place in the ring, its share
 * and work queue, and how it reconciled the objects of one wave. Travels as one line of
 * {@code key=value} fields ({@link #line()}, {@link #parse}).
 *
 * @param phase its membership's phase ({@code JOINING}, {@code MEMBER}, ...)
 * @param leader whether it leads the operator's election, and so runs the assigner
 * @param ready the members it sees as {@code READY}
 * @param unassigned objects without a token that wait for a member; -1 unless it assigns
 * @param drains drains requested and not acknowledged yet; -1 unless it assigns
 * @param cached the objects in its share's cache
 * @param depth its sharded controller's work queue depth
 * @param reconciles its reconciles so far, of any wave
 * @param wave its reconciles of the wave asked for
 */
record ReplicaStatus(String phase, boolean leader, int ready, int unassigned, int drains, int cached, int depth,
        long reconciles, Tally wave) {

    /**
     * A replica's reconciles of one wave: how many, when the first began and the last ended
     * (wall-clock milliseconds, the same clock for every replica on one machine; 0 when none).
     */
    record Tally(int count, long firstStart, long lastEnd) {

        static final Tally NONE = new Tally(0, 0, 0);

        /** This tally with one more reconcile, from {@code start} to {@code end}. */
        Tally plus(long start, long end) {
            return count == 0 ? new Tally(1, start, end)
                    : new Tally(count + 1, Math.min(firstStart, start), Math.max(lastEnd, end));
        }
    }

    String line() {
        return "phase=" + phase + " leader=" + leader + " ready=" + ready + " unassigned=" + unassigned + " drains="
                + drains + " cached=" + cached + " depth=" + depth + " reconciles=" + reconciles + " wave="
                + wave.count() + "," + wave.firstStart() + "," + wave.lastEnd();
    }

    static ReplicaStatus parse(String line) {
        Map<String, String> fields = new HashMap<>();
        for (String field : line.strip().split("\\s+")) {
            int equals = field.indexOf('=');
            if (equals < 1) {
                throw new IllegalArgumentException("not a key=value field: '" + field + "' in '" + line + "'");
            }
            fields.put(field.substring(0, equals), field.substring(equals + 1));
        }
        String[] wave = field(fields, "wave", line).split(",");
        if (wave.length != 3) {
            throw new IllegalArgumentException("wave must be count,firstStart,lastEnd in '" + line + "'");
        }
        return new ReplicaStatus(field(fields, "phase", line), Boolean.parseBoolean(field(fields, "leader", line)),
                Integer.parseInt(field(fields, "ready", line)), Integer.parseInt(field(fields, "unassigned", line)),
                Integer.parseInt(field(fields, "drains", line)), Integer.parseInt(field(fields, "cached", line)),
                Integer.parseInt(field(fields, "depth", line)), Long.parseLong(field(fields, "reconciles", line)),
                new Tally(Integer.parseInt(wave[0]), Long.parseLong(wave[1]), Long.parseLong(wave[2])));
    }

    private static String field(Map<String, String> fields, String key, String line) {
        String value = fields.get(key);
        if (value == null) {
            throw new IllegalArgumentException("no " + key + "= in '" + line + "'");
        }
        return value;
    }
}
