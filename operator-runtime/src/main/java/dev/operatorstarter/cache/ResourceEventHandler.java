package dev.operatorstarter.cache;

/**
 * Receives an informer's notifications (client-go's {@code ResourceEventHandler}). Each handler
 * runs on its own thread with its own unbounded buffer: a slow handler delays only itself, and
 * never the reflector or other handlers. Calls to one handler come one at a time, in the order
 * the informer applied the changes. A handler that throws is logged with the object's key and
 * goes on with the next notification.
 *
 * <p>Objects are the cache's own instances: read them, never change them.
 */
public interface ResourceEventHandler<T> {

    /**
     * An object appeared in the cache.
     *
     * @param isInInitialList true for the objects of the first list, and for the cache's content
     *     replayed to a handler added after the informer started
     */
    default void onAdd(T object, boolean isInInitialList) {
    }

    /**
     * An object changed; also called with two equal versions on a resync this handler asked for
     * (its resync period), and on a relist for objects that changed while the watch was down.
     */
    default void onUpdate(T oldObject, T newObject) {
    }

    /**
     * An object left the cache.
     *
     * @param finalStateUnknown true when the deletion was inferred from a relist: {@code object}
     *     is then the last state the cache held, which may be older than the object's real final state
     */
    default void onDelete(T object, boolean finalStateUnknown) {
    }
}
