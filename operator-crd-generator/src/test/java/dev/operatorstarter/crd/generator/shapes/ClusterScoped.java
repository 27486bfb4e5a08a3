package dev.operatorstarter.crd.generator.shapes;

import dev.operatorstarter.client.CustomResource;
import dev.operatorstarter.crd.Categories;
import dev.operatorstarter.crd.PrinterColumn;
import dev.operatorstarter.crd.ScaleSubresource;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Kind;
import io.fabric8.kubernetes.model.annotation.Plural;
import io.fabric8.kubernetes.model.annotation.ShortNames;
import io.fabric8.kubernetes.model.annotation.Singular;
import io.fabric8.kubernetes.model.annotation.Version;
import jakarta.validation.constraints.NotNull;

/**
 * Names and resource-level settings: cluster scope, a kind, plural and singular of its own, short
 * names, categories, the scale subresource, printer columns of every type, a required spec.
 */
@Group(Shapes.GROUP)
@Version("v1")
@Kind("Fleet")
@Plural("fleetz")
@Singular("onefleet")
@ShortNames({"fl", "flt"})
@Categories({"all", "shapes"})
@ScaleSubresource(labelSelectorPath = ".status.selector")
@PrinterColumn(name = "Desired", jsonPath = ".spec.replicas", type = PrinterColumn.Type.INTEGER,
        description = "Replicas asked for")
@PrinterColumn(name = "Load", jsonPath = ".status.load", type = PrinterColumn.Type.NUMBER, format = "float",
        priority = 1)
@PrinterColumn(name = "Paused", jsonPath = ".spec.paused", type = PrinterColumn.Type.BOOLEAN)
@PrinterColumn(name = "Age", jsonPath = ".metadata.creationTimestamp", type = PrinterColumn.Type.DATE)
public class ClusterScoped extends CustomResource<@NotNull ClusterScoped.Spec, ClusterScoped.Status> {

    public record Spec(int replicas, boolean paused) {
    }

    public record Status(int replicas, String selector, float load) {
    }
}
