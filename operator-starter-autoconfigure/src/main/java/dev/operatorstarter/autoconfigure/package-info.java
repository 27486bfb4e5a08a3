/**
 * Spring Boot auto-configuration for the operator runtime: {@code operator.*} properties, the
 * {@code @Reconciler} annotation and its wiring, lifecycle, actuator health and metrics binding.
 * Registered only through {@code META-INF/spring/...AutoConfiguration.imports}; never
 * component-scanned.
 */
package dev.operatorstarter.autoconfigure;
