package dev.operatorstarter.benchmarks;

import java.util.Locale;

/** A client measured by the macro benchmarks and the chaos runs. */
public enum Subject {
    /** Our informer with the default transform (managedFields dropped, strings shared). */
    OURS,
    /** Our informer caching objects exactly as received. */
    OURS_NO_TRANSFORM,
    /** fabric8 kubernetes-client 8.0 (vertx 4 HTTP client). */
    FABRIC8,
    /** The official Kubernetes Java client (client-java-extended). */
    OFFICIAL,
    /**
     * controller-runtime in Go ({@link ControllerRuntime}), its cache with
     * {@code cache.TransformStripManagedFields}, as most operators configure it.
     */
    CONTROLLER_RUNTIME,
    /** controller-runtime's cache with no transform: objects as received. */
    CONTROLLER_RUNTIME_NO_TRANSFORM;

    /** How the reports name it. */
    public String label() {
        return switch (this) {
            case OURS -> "ours (default transform)";
            case OURS_NO_TRANSFORM -> "ours (no transform)";
            case FABRIC8 -> "fabric8 8.0.0";
            case OFFICIAL -> "official client-java 25.0.0";
            case CONTROLLER_RUNTIME -> ControllerRuntime.label() + " (strip managedFields)";
            case CONTROLLER_RUNTIME_NO_TRANSFORM -> ControllerRuntime.label() + " (no transform)";
        };
    }

    /** Whether it is controller-runtime's Go program rather than a Java client in a forked JVM. */
    public boolean controllerRuntime() {
        return this == CONTROLLER_RUNTIME || this == CONTROLLER_RUNTIME_NO_TRANSFORM;
    }

    /** {@code ours}, {@code fabric8}, {@code OFFICIAL}...: the constant's name in any case, with {@code -} for {@code _}. */
    public static Subject parse(String text) {
        return valueOf(text.toUpperCase(Locale.ROOT).replace('-', '_'));
    }
}
