package dev.operatorstarter.sample;

import com.fasterxml.jackson.annotation.JsonClassDescription;
import dev.operatorstarter.client.CustomResource;
import dev.operatorstarter.crd.PrinterColumn;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.ShortNames;
import io.fabric8.kubernetes.model.annotation.Version;
import jakarta.validation.constraints.NotNull;
import java.util.Map;

/**
 * The sample's custom resource: a static web site, served by a Deployment of web servers from
 * the files in {@link StaticSiteSpec#content()}. Its CustomResourceDefinition is generated from
 * these classes and their annotations into {@code helm/sample-operator/files/crds/} (the build's
 * {@code operator-crd-maven-plugin:check} fails when that file is not current; see docs/crds.md).
 */
@Group(StaticSite.GROUP)
@Version(StaticSite.VERSION)
@ShortNames("ssite")
@JsonClassDescription("A static web site served by a web-server Deployment from the files in its spec.")
@PrinterColumn(name = "Replicas", type = PrinterColumn.Type.INTEGER, jsonPath = ".spec.replicas")
@PrinterColumn(name = "Ready-Replicas", type = PrinterColumn.Type.INTEGER, jsonPath = ".status.readyReplicas")
@PrinterColumn(name = "Ready", jsonPath = ".status.conditions[?(@.type==\"Ready\")].status")
@PrinterColumn(name = "URL", jsonPath = ".status.url", priority = 1)
@PrinterColumn(name = "Age", type = PrinterColumn.Type.DATE, jsonPath = ".metadata.creationTimestamp")
public class StaticSite extends CustomResource<@NotNull StaticSiteSpec, StaticSiteStatus> implements Namespaced {

    public static final String GROUP = "sample.operatorstarter.dev";
    public static final String VERSION = "v1alpha1";

    /** A site named {@code name} with {@code replicas} web servers serving {@code content}. */
    public static StaticSite of(String name, int replicas, Map<String, String> content) {
        StaticSite site = new StaticSite();
        site.getMetadata().setName(name);
        site.setSpec(new StaticSiteSpec(content, replicas));
        return site;
    }
}
