package dev.operatorstarter.event;

import io.fabric8.kubernetes.api.model.HasMetadata;

/**
 * Records events about objects (client-go's {@code events.EventRecorder}). Never blocks and never
 * throws on a busy or failing API server: the event is queued, and dropped (counted and logged)
 * when the queue is full. Thread-safe.
 */
public interface EventRecorder {

    /**
     * Records that {@code action} happened to {@code regarding} for {@code reason}.
     *
     * @param reason why, in UpperCamelCase (for example {@code ConfigMapCreated}); at most 128 characters
     * @param action what was done, in UpperCamelCase (for example {@code Create}); at most 128 characters
     * @param note a human-readable description; cut at 1 KiB
     */
    void event(HasMetadata regarding, EventType type, String reason, String action, String note);
}
