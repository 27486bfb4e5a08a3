package dev.operatorstarter.cache;

import dev.operatorstarter.cache.ReflectorState.Outcome;
import dev.operatorstarter.client.rest.ApiErrors;
import dev.operatorstarter.client.rest.ListOptions;
import dev.operatorstarter.client.rest.WatchEvent;
import io.fabric8.kubernetes.api.model.HasMetadata;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * One streaming list (client-go's {@code WatchList}): a watch opened with
 * {@code sendInitialEvents=true} that starts with the current state as ADDED events, marks their
 * end with a bookmark annotated {@code k8s.io/initial-events-end}, then goes on as a normal watch.
 *
 * <p>This object collects the initial events (later events for a key replace earlier ones, a
 * deletion removes it) and hands them to the FIFO as one {@code replace} at the end bookmark, so
 * the cache sees a full collection exactly as after a paginated list. Progress bookmarks amid the
 * initial events are not their end (client-go tolerates them too).
 *
 * <p>A server that does not support streaming lists rejects the request (400 Bad Request or 422
 * Invalid) before any event: then {@link #result} answers null and the reflector lists instead.
 *
 * <p>Threading: used by the reflector's thread only.
 */
final class StreamingList<T extends HasMetadata> {

    /** Thrown out of the reflector's watch loop when the server rejects a streaming list. */
    static final class Unsupported extends RuntimeException {
        Unsupported(String message) {
            super(message, null, false, false);
        }
    }

    private final long startedNanos;
    private final Map<String, T> objects = new LinkedHashMap<>();
    /** Keys of objects the transform failed on (and that have no earlier state in {@link #objects}). */
    private final Set<String> unread = new HashSet<>();
    private boolean done;

    /** @param startedNanos when the stream was requested, on the reflector's time source */
    StreamingList(long startedNanos) {
        this.startedNanos = startedNanos;
    }

    /** The watch options of a streaming list from {@code resourceVersion} ("" = the latest state). */
    static ListOptions options(String resourceVersion, long timeoutSeconds) {
        return ListOptions.builder().resourceVersion(resourceVersion).resourceVersionMatch("NotOlderThan")
                .sendInitialEvents(true).allowWatchBookmarks(true).timeoutSeconds(timeoutSeconds).build();
    }

    /** True while the initial events are still coming (the end bookmark has not). */
    boolean collecting() {
        return !done;
    }

    /** When the stream was requested. */
    long startedNanos() {
        return startedNanos;
    }

    /**
     * Takes one initial event: {@code raw} as the server sent it, {@code object} after the
     * transform, or null when the transform failed on it (the key is then noted as unread
     * unless an earlier event of it was read).
     */
    void accept(WatchEvent<T> event, T raw, @Nullable T object) {
        String key = Keys.of(raw);
        if (event instanceof WatchEvent.Deleted<T>) {
            objects.remove(key);
            unread.remove(key);
        } else if (object != null) {
            objects.put(key, object);
            unread.remove(key);
        } else if (!objects.containsKey(key)) {
            unread.add(key);
        }
    }

    /** The end bookmark came: replaces the FIFO's contents with the collection; returns its size. */
    int finish(DeltaFifo<T> fifo) {
        List<T> collected = new ArrayList<>(objects.values());
        objects.clear();
        fifo.replace(collected, unread);
        done = true;
        return collected.size();
    }

    /**
     * True when a failure before the end bookmark says the server does not support streaming
     * lists (it rejected {@code sendInitialEvents}).
     */
    boolean rejectedBy(Throwable cause) {
        return !done && (ApiErrors.isBadRequest(cause) || ApiErrors.isInvalid(cause));
    }

    /**
     * The outcome of the list step, given how the stream ended: the stream's own outcome once the
     * initial events were delivered (or on stop); a failed (or, on 410, expired) list when the
     * stream ended before they were; null when the server does not support streaming lists.
     *
     * @param name the reflector's name, for the error
     */
    @Nullable Outcome result(String name, String resourceVersion, Outcome streamed) {
        ReflectorException cause = streamed.error();
        if (cause != null && cause.getCause() != null && rejectedBy(cause.getCause())) {
            return null;
        }
        if (done || streamed instanceof Outcome.StopRequested) {
            return streamed;
        }
        String prefix = "streaming list from resourceVersion \"" + resourceVersion + "\" ";
        ReflectorException error = cause == null
                ? new ReflectorException.ListFailed(name, prefix + "ended before its initial events did",
                        new IllegalStateException("stream ended"))
                : new ReflectorException.ListFailed(name, prefix + "failed: "
                        + Reflector.describe(cause.getCause() == null ? cause : cause.getCause()), cause);
        return streamed instanceof Outcome.WatchExpired ? new Outcome.ListExpired(error)
                : new Outcome.ListFailed(error);
    }
}
