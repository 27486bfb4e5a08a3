/**
 * The event recorder (client-go's {@code tools/events}): {@link dev.operatorstarter.event.EventRecorder}
 * never blocks its caller; an {@link dev.operatorstarter.event.EventBroadcaster} writes
 * {@code events.k8s.io/v1} Events (core/v1 where that API is not served) on its own thread, folds
 * repeats into one Event's series, and drops floods per object. See docs/controllers.md.
 */
@NullMarked
package dev.operatorstarter.event;

import org.jspecify.annotations.NullMarked;
