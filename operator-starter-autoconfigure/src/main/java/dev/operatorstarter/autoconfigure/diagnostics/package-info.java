/**
 * Failure analyzers: what Spring Boot prints, instead of a stack trace, when the operator cannot
 * start (no Kubernetes configuration, an unknown context, an unreadable certificate, a
 * {@code @Reconciler} bean that cannot become a controller, caches that did not sync because RBAC
 * refused a verb, a webhook server that cannot start).
 */
@NullMarked
package dev.operatorstarter.autoconfigure.diagnostics;

import org.jspecify.annotations.NullMarked;
