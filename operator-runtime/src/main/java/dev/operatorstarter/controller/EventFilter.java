package dev.operatorstarter.controller;

import io.fabric8.kubernetes.api.model.HasMetadata;
import java.util.Map;
import java.util.Objects;

/**
 * Decides which informer notifications become requests (controller-runtime's {@code predicate}).
 * Each method answers for one kind of notification; the factories give the common filters and
 * {@link #and}, {@link #or}, {@link #negate} combine them.
 */
public interface EventFilter<T extends HasMetadata> {

    default boolean onAdd(T object) {
        return true;
    }

    default boolean onUpdate(T oldObject, T newObject) {
        return true;
    }

    default boolean onDelete(T object) {
        return true;
    }

    /** Lets everything through. */
    static <T extends HasMetadata> EventFilter<T> all() {
        return new EventFilter<>() {
        };
    }

    /**
     * Updates only when {@code metadata.generation} changed: spec changes, not status or metadata
     * changes (for resources that have a generation; others always pass).
     */
    static <T extends HasMetadata> EventFilter<T> generationChanged() {
        return new EventFilter<>() {
            @Override
            public boolean onUpdate(T oldObject, T newObject) {
                Long before = oldObject.getMetadata().getGeneration();
                Long after = newObject.getMetadata().getGeneration();
                return before == null || after == null || !before.equals(after);
            }
        };
    }

    /** Updates only when the resourceVersion changed (drops resyncs). */
    static <T extends HasMetadata> EventFilter<T> resourceVersionChanged() {
        return new EventFilter<>() {
            @Override
            public boolean onUpdate(T oldObject, T newObject) {
                return !Objects.equals(oldObject.getMetadata().getResourceVersion(),
                        newObject.getMetadata().getResourceVersion());
            }
        };
    }

    /** Updates only when the labels changed. */
    static <T extends HasMetadata> EventFilter<T> labelsChanged() {
        return new EventFilter<>() {
            @Override
            public boolean onUpdate(T oldObject, T newObject) {
                return !Objects.equals(orEmpty(oldObject.getMetadata().getLabels()),
                        orEmpty(newObject.getMetadata().getLabels()));
            }
        };
    }

    /** Updates only when the annotations changed. */
    static <T extends HasMetadata> EventFilter<T> annotationsChanged() {
        return new EventFilter<>() {
            @Override
            public boolean onUpdate(T oldObject, T newObject) {
                return !Objects.equals(orEmpty(oldObject.getMetadata().getAnnotations()),
                        orEmpty(newObject.getMetadata().getAnnotations()));
            }
        };
    }

    /** Only objects whose labels match {@code selector} (checked on the new object of an update). */
    static <T extends HasMetadata> EventFilter<T> labelsMatch(dev.operatorstarter.cache.LabelSelector selector) {
        return new EventFilter<>() {
            @Override
            public boolean onAdd(T object) {
                return selector.matches(object.getMetadata().getLabels());
            }

            @Override
            public boolean onUpdate(T oldObject, T newObject) {
                return selector.matches(newObject.getMetadata().getLabels());
            }

            @Override
            public boolean onDelete(T object) {
                return selector.matches(object.getMetadata().getLabels());
            }
        };
    }

    /** Both this and {@code other}. */
    default EventFilter<T> and(EventFilter<T> other) {
        EventFilter<T> self = this;
        return new EventFilter<>() {
            @Override
            public boolean onAdd(T object) {
                return self.onAdd(object) && other.onAdd(object);
            }

            @Override
            public boolean onUpdate(T oldObject, T newObject) {
                return self.onUpdate(oldObject, newObject) && other.onUpdate(oldObject, newObject);
            }

            @Override
            public boolean onDelete(T object) {
                return self.onDelete(object) && other.onDelete(object);
            }
        };
    }

    /** This or {@code other}. */
    default EventFilter<T> or(EventFilter<T> other) {
        EventFilter<T> self = this;
        return new EventFilter<>() {
            @Override
            public boolean onAdd(T object) {
                return self.onAdd(object) || other.onAdd(object);
            }

            @Override
            public boolean onUpdate(T oldObject, T newObject) {
                return self.onUpdate(oldObject, newObject) || other.onUpdate(oldObject, newObject);
            }

            @Override
            public boolean onDelete(T object) {
                return self.onDelete(object) || other.onDelete(object);
            }
        };
    }

    /** The opposite of this. */
    default EventFilter<T> negate() {
        EventFilter<T> self = this;
        return new EventFilter<>() {
            @Override
            public boolean onAdd(T object) {
                return !self.onAdd(object);
            }

            @Override
            public boolean onUpdate(T oldObject, T newObject) {
                return !self.onUpdate(oldObject, newObject);
            }

            @Override
            public boolean onDelete(T object) {
                return !self.onDelete(object);
            }
        };
    }

    private static Map<String, String> orEmpty(Map<String, String> map) {
        return map == null ? Map.of() : map;
    }
}
