/**
 * The operator's auto-configurations, one per role (Spring Boot's own shape): metrics, client,
 * informers, events, leader election, controllers (with the manager and its lifecycle). Each is
 * a public final shell with package-private bean methods whose beans back off when the
 * application defines its own; everything else here is package-private wiring, not API. The
 * types applications use ({@code @Reconciler}, {@code RequestMapper}, the customizers,
 * {@code OperatorProperties}, {@code KubernetesConnectionDetails}, {@code OperatorStatus}) are in
 * {@code dev.operatorstarter.autoconfigure}.
 */
@NullMarked
package dev.operatorstarter.autoconfigure.wiring;

import org.jspecify.annotations.NullMarked;
