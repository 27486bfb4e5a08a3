package dev.operatorstarter.controller;

import io.micrometer.common.KeyValue;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import org.jspecify.annotations.Nullable;

/**
 * The Micrometer {@link Observation} around one reconcile, named {@value #NAME}, with contextual
 * name (a span's name) {@code reconcile <controller>}.
 *
 * <p>Low-cardinality keys (metrics tags and span tags): {@code controller} and {@code result}
 * ({@code success}, {@code error}, {@code requeue} or {@code requeue_after}, the values of
 * {@code controller_runtime_reconcile_total}). High-cardinality keys (span tags only):
 * {@code namespace} ("" for a cluster-scoped object) and {@code name}. A reconcile that threw,
 * or ran past its timeout, has its exception as the observation's error.
 *
 * <p>The observation is current (its scope open) on the worker's thread while the handler runs,
 * so the client's request observations made from the handler are its children. With
 * {@link ObservationRegistry#NOOP} (the default) nothing is made: the worker does not call this
 * class at all.
 */
final class ReconcileObservation {

    /** The observation's name; Prometheus shows its timer as {@code operator_reconcile_seconds}. */
    static final String NAME = "operator.reconcile";

    /** The context handlers see: the controller and request, for handlers that want them typed. */
    static final class Context extends Observation.Context {
        private final String controller;
        private final ReconcileRequest request;

        Context(String controller, ReconcileRequest request) {
            this.controller = controller;
            this.request = request;
        }

        String controller() {
            return controller;
        }

        ReconcileRequest request() {
            return request;
        }
    }

    private ReconcileObservation() {
    }

    /** A started observation of {@code request}'s reconcile by {@code controller}. */
    static Observation start(ObservationRegistry registry, String controller, ReconcileRequest request) {
        return Observation.createNotStarted(NAME, () -> new Context(controller, request), registry)
                .contextualName("reconcile " + controller)
                .lowCardinalityKeyValue("controller", controller)
                .highCardinalityKeyValue("namespace", request.namespace())
                .highCardinalityKeyValue("name", request.name())
                .start();
    }

    /** Ends {@code observation} with the reconcile's {@code result} and what it threw, if anything. */
    static void stop(Observation observation, String result, @Nullable Throwable thrown) {
        observation.lowCardinalityKeyValue(KeyValue.of("result", result));
        if (thrown != null) {
            observation.error(thrown);
        }
        observation.stop();
    }
}
