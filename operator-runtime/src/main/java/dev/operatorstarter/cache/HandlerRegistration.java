package dev.operatorstarter.cache;

/** A handler added to a {@link SharedIndexInformer}. */
public interface HandlerRegistration {

    /**
     * True once the informer has synced and this handler has finished processing every
     * notification of the initial list (or of the replay it got when added late).
     */
    boolean hasSynced();

    /** Removes the handler; notifications not yet delivered to it are dropped. Idempotent. */
    void remove();
}
