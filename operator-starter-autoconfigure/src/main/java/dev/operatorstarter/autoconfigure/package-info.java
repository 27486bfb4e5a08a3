/**
 * What an application uses from the Spring Boot starter: the
 * {@link dev.operatorstarter.autoconfigure.Reconciler @Reconciler} annotation and its
 * {@link dev.operatorstarter.autoconfigure.RequestMapper} and
 * {@link dev.operatorstarter.autoconfigure.MetadataRequestMapper}, the {@code operator.*} properties
 * ({@link dev.operatorstarter.autoconfigure.OperatorProperties}), connection details, the
 * customizers of the client, informers, controllers and leader election, and the read-only
 * {@link dev.operatorstarter.autoconfigure.OperatorStatus}. The auto-configurations, one per
 * role, and their package-private wiring are in {@code wiring}; health indicators, the actuator
 * endpoint, failure analyzers and the K3s {@code @ServiceConnection} factory in the other
 * sub-packages. Registered only through {@code META-INF/spring/...AutoConfiguration.imports};
 * never component-scanned.
 */
@NullMarked
package dev.operatorstarter.autoconfigure;

import org.jspecify.annotations.NullMarked;
