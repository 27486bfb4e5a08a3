package dev.operatorstarter.benchmarks.chaos;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/** The two checks that judge a trial for one subject, as functions of what was observed. */
final class CacheCheck {

    private CacheCheck() {
    }

    /**
     * How a subject's cache differs from a fresh list of the server: names missing from the cache,
     * names the server no longer has, and names cached at another resourceVersion. Empty when
     * they are equal.
     *
     * @param cache name to resourceVersion, as the subject's cache holds them
     * @param server name to resourceVersion, as a fresh list returned them
     */
    static List<String> differences(Map<String, Long> cache, Map<String, Long> server) {
        List<String> differences = new ArrayList<>();
        Set<String> names = new TreeSet<>(server.keySet());
        names.addAll(cache.keySet());
        for (String name : names) {
            Long cached = cache.get(name);
            Long listed = server.get(name);
            if (cached == null) {
                differences.add(name + " missing (server has " + listed + ")");
            } else if (listed == null) {
                differences.add(name + " deleted on the server, cached at " + cached);
            } else if (!cached.equals(listed)) {
                differences.add(name + " cached at " + cached + ", server has " + listed);
            }
        }
        return differences;
    }

    /**
     * The names a handler was told about whose last notification is not a delete although the
     * server no longer has them: deletions that never reached the handler.
     *
     * @param lastByName the last event of every name the handler heard of
     * @param onServer the names a fresh list returned
     */
    static List<String> undeliveredDeletions(Map<String, InformerEvent> lastByName, Set<String> onServer) {
        return lastByName.values().stream()
                .filter(last -> !onServer.contains(last.name()) && last.type() != InformerEvent.Type.DELETE)
                .map(last -> last.name() + " (last told " + last.type() + " at " + last.resourceVersion() + ")")
                .sorted().toList();
    }
}
