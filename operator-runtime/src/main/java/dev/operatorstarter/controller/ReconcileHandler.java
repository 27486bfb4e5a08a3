package dev.operatorstarter.controller;

/**
 * The logic of a controller (controller-runtime's {@code reconcile.Reconciler}): make the world
 * match the desired state of the object named by the request, and say when to look again.
 *
 * <p>Contract: read the current state (from a lister or the API) rather than assuming what
 * changed; be idempotent, since the same request can come any number of times; the object may
 * be gone (deleted) when the request arrives. Calls for one request never overlap; calls for
 * different requests run on different workers at once.
 *
 * <p>Errors: a thrown exception is retried with the rate limiter's backoff, without an attempt
 * limit; a {@link TerminalException}, thrown directly or as the cause (at any depth) of what is
 * thrown, is not retried (until the object changes again). Nothing a
 * reconcile throws, not even an {@link Error} such as a {@link StackOverflowError}, stops a worker.
 */
@FunctionalInterface
public interface ReconcileHandler<T> {

    ReconcileResult reconcile(ReconcileRequest request) throws Exception;
}
