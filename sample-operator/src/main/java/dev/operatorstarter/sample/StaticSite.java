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
 * The sample's custom resource, version {@code v1}: a static web site, served by a Deployment of
 * web servers from the files in {@link StaticSiteSpec#files()}. It is the version the API server
 * stores and the one the operator reads; {@link StaticSiteV1alpha1} is the older version, still
 * served and converted to and from this one by {@link StaticSiteConverter}.
 *
 * <p>The CustomResourceDefinition is generated from both classes and their annotations into
 * {@code helm/sample-operator/files/crds/} (the build's {@code operator-crd-maven-plugin:check}
 * fails when that file is not current; see docs/crds.md).
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
    public static final String VERSION = "v1";
    /** The kind, shared by every version. */
    public static final String KIND = "StaticSite";

    /**
     * A site named {@code name} with {@code replicas} web servers serving {@code content} (file
     * name to text), its files in name order.
     */
    public static StaticSite of(String name, int replicas, Map<String, String> content) {
        StaticSite site = new StaticSite();
        site.getMetadata().setName(name);
        site.setSpec(new StaticSiteSpec(SiteFile.sorted(content), replicas));
        return site;
    }
}
