package dev.operatorstarter.benchmarks;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import java.util.Locale;

/**
 * One point of the scale curve: {@code objects} objects of one kind, alone in a namespace of their
 * own (so an informer over that namespace sees exactly them), measured {@code runs} times per subject.
 *
 * @param kind what the objects are
 * @param objects how many are created, at least 1 (the server lists one more ConfigMap: the
 *     namespace's {@code kube-root-ca.crt})
 * @param runs fresh JVMs per subject, at least 1
 */
record Workload(Kind kind, int objects, int runs) {

    /** The object kinds the informer benchmarks cache. */
    enum Kind {
        /** ConfigMaps with about 1 KiB of data ({@link Dataset#configMap}). */
        CONFIGMAPS("configmaps", "ConfigMaps", ConfigMap.class),
        /** Pods shaped like a Deployment's ({@link Dataset#pod}). */
        PODS("pods", "Pods", Pod.class);

        private final String resource;
        private final String title;
        private final Class<? extends HasMetadata> type;

        Kind(String resource, String title, Class<? extends HasMetadata> type) {
            this.resource = resource;
            this.title = title;
            this.type = type;
        }

        /** The API resource, as {@link InformerRun} takes it: {@code configmaps}, {@code pods}. */
        String resource() {
            return resource;
        }

        /** How reports name the objects: {@code ConfigMaps}, {@code Pods}. */
        String title() {
            return title;
        }

        /** The model class ours and the cache histograms decode the objects into. */
        Class<? extends HasMetadata> type() {
            return type;
        }

        static Kind parse(String resource) {
            for (Kind kind : values()) {
                if (kind.resource.equals(resource.toLowerCase(Locale.ROOT))) {
                    return kind;
                }
            }
            throw new IllegalArgumentException("no such kind: " + resource + " (configmaps or pods)");
        }
    }

    Workload {
        if (kind == null) {
            throw new IllegalArgumentException("kind must be set");
        }
        if (objects < 1) {
            throw new IllegalArgumentException("objects must be at least 1, was " + objects);
        }
        if (runs < 1) {
            throw new IllegalArgumentException("runs must be at least 1, was " + runs);
        }
    }

    /** The namespace that holds these objects and nothing else of their kind: {@code bench-configmaps-10000}. */
    String namespace() {
        return "bench-" + kind.resource() + "-" + objects;
    }

    /** How many objects an informer over {@link #namespace()} must cache: the namespace's root CA ConfigMap counts too. */
    int listed() {
        return kind == Kind.CONFIGMAPS ? objects + 1 : objects;
    }

    /**
     * How many objects the cache alone holds: those listed beyond the one of their kind in the
     * baseline namespace ({@link Dataset#BASELINE}: its kube-root-ca.crt ConfigMap, its one Pod),
     * whose cost the subtracted baseline already includes. For ConfigMaps that is {@link #objects()}.
     */
    int beyondBaseline() {
        return listed() - 1;
    }
}
