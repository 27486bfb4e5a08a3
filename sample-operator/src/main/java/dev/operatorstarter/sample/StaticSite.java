package dev.operatorstarter.sample;

import dev.operatorstarter.client.CustomResource;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Version;
import java.util.Map;

/**
 * The sample's custom resource: a static web site, served by a Deployment of web servers from
 * the files in {@link StaticSiteSpec#content()}. Its CustomResourceDefinition lives in
 * {@code helm/sample-operator/files/crds/}; {@code CrdSchemaTest} keeps the two in step.
 */
@Group(StaticSite.GROUP)
@Version(StaticSite.VERSION)
public class StaticSite extends CustomResource<StaticSiteSpec, StaticSiteStatus> implements Namespaced {

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
