/**
 * The manager (controller-runtime's {@code pkg/manager} and {@code pkg/builder}): runs an
 * operator's informers, event broadcaster, leader election and {@link dev.operatorstarter.manager.ManagedRunnable}s
 * in {@link dev.operatorstarter.manager.RunnableGroup}s, and builds its controllers
 * ({@link dev.operatorstarter.manager.Manager#controller}, the front door).
 *
 * <p><b>Start</b> ({@link dev.operatorstarter.manager.Manager#start()}): the event broadcaster, the
 * webhooks group, the check that the API server serves every informer's resource (a CRD not
 * installed fails the start with {@link dev.operatorstarter.manager.ResourceNotServedException},
 * or is waited for with {@code OnMissingResource.WAIT}), the informers, the wait for their caches,
 * the always group; then the member group's terms (when a plugin gave them) and the leader
 * election, whose terms run the leader group, or without election that group at once. A resource
 * that goes away later is the informers' to handle: they retry, keep their cache, and sync again.
 *
 * <p><b>Terms</b>: a term group runs only during a term, and every controller checks the term's
 * validity before each reconcile. When a term ends, its runnables stop at once (reconciles still
 * running after a second are interrupted: another replica may lead already); the elector campaigns
 * again, or, with {@code ManagerBuilder.onLostLeadership}, the leader group stops for good and the
 * hook runs (to end the process, so the pod restarts with a clean state).
 *
 * <p><b>Stop</b> ({@link dev.operatorstarter.manager.Manager#close()}), in reverse: the member
 * group, then its terms end (the membership is released only if everything stopped, else left to
 * expire); the leader group (reconciles in flight get what is left of the shutdown timeout, shared
 * by all groups); the elector (which releases the lease when so configured); the always group; the
 * informers; the webhooks; the event broadcaster.
 *
 * <p><b>Extension points</b>: a {@link dev.operatorstarter.manager.ManagerPlugin} adds runnables and
 * the member terms; a {@link dev.operatorstarter.manager.ControllerExtension} narrows, decorates and
 * places a controller. Sharding uses both; nothing here knows it. The lifecycle is one state type
 * with one transition function ({@code ManagerState}).
 *
 * <p>Depends on every package below it; only plugins ({@code sharding}) depend on it.
 */
@NullMarked
package dev.operatorstarter.manager;

import org.jspecify.annotations.NullMarked;
