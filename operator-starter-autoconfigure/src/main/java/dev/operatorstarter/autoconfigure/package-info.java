/**
 * Spring Boot auto-configuration for the operator runtime: {@code operator.*} properties
 * ({@link dev.operatorstarter.autoconfigure.OperatorProperties}), connection details, the
 * {@link dev.operatorstarter.autoconfigure.Reconciler @Reconciler} annotation and its wiring,
 * customizers, and the lifecycle (informers → cache sync → leader election → controllers).
 * Registered only through {@code META-INF/spring/...AutoConfiguration.imports}; never
 * component-scanned. Health indicators, the actuator endpoint, failure analyzers and the K3s
 * {@code @ServiceConnection} factory live in sub-packages.
 */
@NullMarked
package dev.operatorstarter.autoconfigure;

import org.jspecify.annotations.NullMarked;
