package dev.operatorstarter.cache;

import io.fabric8.kubernetes.api.model.HasMetadata;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.function.UnaryOperator;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A reflector's transform with its failures isolated: an object the transform throws on is logged
 * once with its key, counted ({@code processingError(name, "transform")}) and left out, so the
 * cache keeps its previous version of it, as client-go does with a watch event its store rejects.
 *
 * <p>Threading: as thread-safe as the transform (a reflector calls it from its one thread).
 */
final class IsolatedTransform<T extends HasMetadata> {

    private static final Logger log = LoggerFactory.getLogger(Reflector.class);

    private final String name;
    private final UnaryOperator<T> transform;
    private final ReflectorMetrics metrics;

    /** @param name the reflector's name, for logs and metrics */
    IsolatedTransform(String name, UnaryOperator<T> transform, ReflectorMetrics metrics) {
        this.name = Objects.requireNonNull(name, "name");
        this.transform = Objects.requireNonNull(transform, "transform");
        this.metrics = Objects.requireNonNull(metrics, "metrics");
    }

    /**
     * The object after the transform, or null when the transform threw on it.
     *
     * @param how how the object came ("listed", "watched"), for the log
     */
    @Nullable T apply(T object, String how) {
        try {
            return transform.apply(object);
        } catch (RuntimeException e) {
            log.error("{}: the transform failed on {} object {} (resourceVersion {}); skipped, the cache keeps its "
                    + "previous version", name, how, keyOf(object), object.getMetadata() == null ? null
                    : object.getMetadata().getResourceVersion(), e);
            metrics.processingError(name, "transform");
            return null;
        }
    }

    /** Transforms the listed {@code objects} into {@code into}; the keys of those it fails on go to {@code unread}. */
    void applyAll(List<T> objects, Collection<T> into, Set<String> unread) {
        for (T object : objects) {
            T transformed = apply(object, "listed");
            if (transformed != null) {
                into.add(transformed);
            } else {
                unread.add(Keys.of(object));
            }
        }
    }

    private static String keyOf(HasMetadata object) {
        try {
            return Keys.of(object);
        } catch (RuntimeException e) {
            return "(no key)";
        }
    }
}
