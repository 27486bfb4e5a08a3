package dev.operatorstarter.sample;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Version;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * The sample's custom resource: a static web site, served by a Deployment of web servers from
 * the files in {@link StaticSiteSpec#content()}. Its CustomResourceDefinition lives in
 * {@code helm/sample-operator/files/crds/}; {@code CrdSchemaTest} keeps the two in step.
 */
@Group(StaticSite.GROUP)
@Version(StaticSite.VERSION)
public class StaticSite implements HasMetadata, Namespaced {

    public static final String GROUP = "sample.operatorstarter.dev";
    public static final String VERSION = "v1alpha1";

    private String apiVersion = GROUP + "/" + VERSION;
    private String kind = "StaticSite";
    private ObjectMeta metadata = new ObjectMeta();
    private StaticSiteSpec spec = new StaticSiteSpec(Map.of(), 1);
    private @Nullable StaticSiteStatus status;

    /** A site named {@code name} with {@code replicas} web servers serving {@code content}. */
    public static StaticSite of(String name, int replicas, Map<String, String> content) {
        StaticSite site = new StaticSite();
        site.getMetadata().setName(name);
        site.setSpec(new StaticSiteSpec(content, replicas));
        return site;
    }

    @Override
    public String getApiVersion() {
        return apiVersion;
    }

    @Override
    public void setApiVersion(String apiVersion) {
        this.apiVersion = apiVersion;
    }

    @Override
    public String getKind() {
        return kind;
    }

    public void setKind(String kind) {
        this.kind = kind;
    }

    @Override
    public ObjectMeta getMetadata() {
        return metadata;
    }

    @Override
    public void setMetadata(ObjectMeta metadata) {
        this.metadata = metadata;
    }

    public StaticSiteSpec getSpec() {
        return spec;
    }

    public void setSpec(StaticSiteSpec spec) {
        this.spec = spec;
    }

    public @Nullable StaticSiteStatus getStatus() {
        return status;
    }

    public void setStatus(@Nullable StaticSiteStatus status) {
        this.status = status;
    }
}
