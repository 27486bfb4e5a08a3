package dev.operatorstarter.autoconfigure;

import dev.operatorstarter.cache.SharedIndexInformer;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * The informers did not finish their first list in time at start-up. Names each informer that
 * had not synced with its last error; for an RBAC refusal, {@link #denials()} says which identity
 * was refused which verb on which resource.
 */
public final class CacheSyncException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /** The API server's wording of an RBAC refusal (a 403's message). */
    private static final Pattern FORBIDDEN = Pattern.compile("User \"([^\"]+)\" cannot (\\S+) resource \"([^\"]+)\""
            + "(?: in API group \"([^\"]*)\")?(?: in the namespace \"([^\"]+)\")?");

    /** An informer that had not synced, and its last error ("no error yet" when there was none). */
    public record Unsynced(String informer, String lastError, @Nullable Denial denial) {
    }

    /**
     * An RBAC refusal read from a 403.
     *
     * @param identity the user or service account, e.g. {@code system:serviceaccount:ops:operator}
     * @param verb the refused verb, e.g. {@code list} or {@code watch}
     * @param resource the resource, e.g. {@code configmaps}
     * @param group the API group, "" for core
     * @param namespace the namespace, or "" at the cluster scope
     */
    public record Denial(String identity, String verb, String resource, String group, String namespace) {

        /** Reads a refusal from a 403's message; empty when the message has another form. */
        static Optional<Denial> parse(@Nullable String message) {
            if (message == null) {
                return Optional.empty();
            }
            Matcher matcher = FORBIDDEN.matcher(message);
            if (!matcher.find()) {
                return Optional.empty();
            }
            return Optional.of(new Denial(matcher.group(1), matcher.group(2), matcher.group(3),
                    matcher.group(4) == null ? "" : matcher.group(4), matcher.group(5) == null ? "" : matcher.group(5)));
        }
    }

    private final Duration timeout;
    private final List<Unsynced> unsynced;

    CacheSyncException(Duration timeout, List<Unsynced> unsynced) {
        super(describe(timeout, unsynced));
        this.timeout = timeout;
        this.unsynced = List.copyOf(unsynced);
    }

    /** The informers of {@code informers} that have not synced, with their last errors. */
    static List<Unsynced> unsynced(List<SharedIndexInformer<?>> informers) {
        return informers.stream().filter(informer -> !informer.hasSynced()).map(informer -> {
            String error = informer.lastError().map(Throwable::getMessage).orElse("no error yet");
            return new Unsynced(informer.name(), error, Denial.parse(error).orElse(null));
        }).toList();
    }

    public Duration timeout() {
        return timeout;
    }

    public List<Unsynced> unsynced() {
        return unsynced;
    }

    /** The RBAC refusals among the informers' last errors. */
    public List<Denial> denials() {
        return unsynced.stream().map(Unsynced::denial).filter(java.util.Objects::nonNull).toList();
    }

    private static String describe(Duration timeout, List<Unsynced> unsynced) {
        StringBuilder text = new StringBuilder("informer caches not synced after " + timeout + ": ");
        for (int i = 0; i < unsynced.size(); i++) {
            Unsynced each = unsynced.get(i);
            text.append(i == 0 ? "" : "; ").append(each.informer()).append(" (").append(each.lastError()).append(')');
        }
        return text.toString();
    }
}
