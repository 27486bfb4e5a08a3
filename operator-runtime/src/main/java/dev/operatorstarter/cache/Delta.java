package dev.operatorstarter.cache;

import java.util.Objects;

/**
 * One change to one object, as queued by {@link DeltaFifo} (client-go's {@code Delta}).
 *
 * @param type what happened
 * @param object the object after the change; for {@link Type#DELETED}, its last known state
 * @param finalStateUnknown only for {@link Type#DELETED}: the deletion was inferred from a relist
 *     (the object was missing from it) and was not seen, so {@code object} is the newest state the
 *     informer had for it (a queued change, else the cached copy), which may be older than the
 *     object's real final state (client-go's {@code DeletedFinalStateUnknown} tombstone)
 */
record Delta<T>(Type type, T object, boolean finalStateUnknown) {

    /** The kinds of change. */
    public enum Type {
        /** A watch reported the object as created. */
        ADDED,
        /** A watch reported a change. */
        UPDATED,
        /** The object is gone. */
        DELETED,
        /** A list (initial or relist) contained the object. */
        REPLACED,
        /** A periodic resync re-delivers the cached object unchanged. */
        SYNC
    }

    public Delta {
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(object, "object");
        if (finalStateUnknown && type != Type.DELETED) {
            throw new IllegalArgumentException("only a DELETED delta can have an unknown final state");
        }
    }

    public static <T> Delta<T> added(T object) {
        return new Delta<>(Type.ADDED, object, false);
    }

    public static <T> Delta<T> updated(T object) {
        return new Delta<>(Type.UPDATED, object, false);
    }

    public static <T> Delta<T> deleted(T object) {
        return new Delta<>(Type.DELETED, object, false);
    }

    /** A tombstone: the object disappeared while nobody was watching; {@code lastKnown} is its newest state seen. */
    public static <T> Delta<T> deletedFinalStateUnknown(T lastKnown) {
        return new Delta<>(Type.DELETED, lastKnown, true);
    }

    public static <T> Delta<T> replaced(T object) {
        return new Delta<>(Type.REPLACED, object, false);
    }

    public static <T> Delta<T> sync(T object) {
        return new Delta<>(Type.SYNC, object, false);
    }
}
