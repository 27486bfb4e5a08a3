/**
 * The reconcile loop (controller-runtime's {@code controller}, {@code reconcile}, {@code handler}
 * and {@code predicate}): informers' changes become {@link dev.operatorstarter.controller.ReconcileRequest}s
 * in a rate-limited work queue; workers run a {@link dev.operatorstarter.controller.ReconcileHandler}
 * and act on its {@link dev.operatorstarter.controller.ReconcileResult}. Helpers for finalizers, conditions,
 * owner references and server-side apply. See docs/controllers.md.
 */
@NullMarked
package dev.operatorstarter.controller;

import org.jspecify.annotations.NullMarked;
