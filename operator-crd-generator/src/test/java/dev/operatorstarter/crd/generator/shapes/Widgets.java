package dev.operatorstarter.crd.generator.shapes;

import dev.operatorstarter.client.CustomResource;
import dev.operatorstarter.crd.Default;
import dev.operatorstarter.crd.PrinterColumn;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Kind;
import io.fabric8.kubernetes.model.annotation.Version;

/**
 * One resource in three versions: v1 is stored, v1beta1 is still served but deprecated, v1alpha1
 * is no longer served. The spec changed shape between versions (size became replicas).
 */
public final class Widgets {

    private Widgets() {
    }

    @Group(Shapes.GROUP)
    @Version("v1")
    @Kind("Widget")
    @PrinterColumn(name = "Replicas", jsonPath = ".spec.replicas", type = PrinterColumn.Type.INTEGER)
    public static class V1 extends CustomResource<V1.Spec, V1.Status> implements Namespaced {
        public record Spec(@Default("1") int replicas, String color) {
        }

        public record Status(int readyReplicas) {
        }
    }

    @Group(Shapes.GROUP)
    @Version(value = "v1beta1", storage = false, deprecated = true,
            deprecationWarning = "shapes.operatorstarter.dev/v1beta1 Widget is deprecated; use v1")
    @Kind("Widget")
    public static class V1beta1 extends CustomResource<V1beta1.Spec, Void> implements Namespaced {
        public record Spec(int size, String color) {
        }
    }

    @Group(Shapes.GROUP)
    @Version(value = "v1alpha1", storage = false, served = false)
    @Kind("Widget")
    public static class V1alpha1 extends CustomResource<V1alpha1.Spec, Void> implements Namespaced {
        public record Spec(int size) {
        }
    }
}
