package dev.operatorstarter.cache;

import java.time.Duration;
import java.util.Map;

/** Informers did not sync in time; says which, and the last error of each (often a 403 naming the verb). */
public final class InformerSyncException extends RuntimeException {

    private final Map<String, String> unsynced;

    public InformerSyncException(Duration timeout, Map<String, String> unsynced) {
        super("informers not synced after " + timeout + ": " + describe(unsynced));
        this.unsynced = Map.copyOf(unsynced);
    }

    /** Informer name → its last error message (or "no error yet"). */
    public Map<String, String> unsynced() {
        return unsynced;
    }

    private static String describe(Map<String, String> unsynced) {
        StringBuilder text = new StringBuilder();
        unsynced.forEach((name, error) -> text.append(text.length() == 0 ? "" : "; ").append(name).append(" (")
                .append(error).append(')'));
        return text.toString();
    }
}
