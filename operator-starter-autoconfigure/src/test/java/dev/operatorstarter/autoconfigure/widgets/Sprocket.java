package dev.operatorstarter.autoconfigure.widgets;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Version;
import java.util.LinkedHashMap;
import java.util.Map;

/** A custom resource whose CRD a test installs late, to watch an informer go from failing to synced. */
@Group("starter.operatorstarter.dev")
@Version("v1")
public class Sprocket implements HasMetadata, Namespaced {

    private String apiVersion = "starter.operatorstarter.dev/v1";
    private String kind = "Sprocket";
    private ObjectMeta metadata = new ObjectMeta();
    private Map<String, Object> spec = new LinkedHashMap<>();
    private Map<String, Object> status;

    public static Sprocket named(String name, String colour) {
        Sprocket widget = new Sprocket();
        widget.getMetadata().setName(name);
        widget.getSpec().put("colour", colour);
        return widget;
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

    public Map<String, Object> getSpec() {
        return spec;
    }

    public void setSpec(Map<String, Object> spec) {
        this.spec = spec;
    }

    public Map<String, Object> getStatus() {
        return status;
    }

    public void setStatus(Map<String, Object> status) {
        this.status = status;
    }
}
