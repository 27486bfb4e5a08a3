package dev.operatorstarter.event;

import java.time.Instant;

/** Where events are written: events.k8s.io/v1, core/v1, or a test's memory. */
interface EventSink {

    /** Writes a new Event; returns its name. */
    String create(Occurrence occurrence);

    /** Records that the Event {@code namespace/name} has now happened {@code count} times, last at {@code lastObserved}. */
    void updateSeries(String namespace, String name, int count, Instant lastObserved);
}
