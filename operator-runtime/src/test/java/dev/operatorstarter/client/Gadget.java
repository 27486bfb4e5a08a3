package dev.operatorstarter.client;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Version;
import java.util.LinkedHashMap;
import java.util.Map;

/** A custom resource class of the kind users write: annotations, metadata, spec and status. */
@Group("runtime.operatorstarter.dev")
@Version("v1")
public class Gadget implements HasMetadata, Namespaced {

    private String apiVersion = "runtime.operatorstarter.dev/v1";
    private String kind = "Gadget";
    private ObjectMeta metadata = new ObjectMeta();
    private Map<String, Object> spec = new LinkedHashMap<>();
    private Map<String, Object> status;

    static Gadget named(String name, int size) {
        Gadget gadget = new Gadget();
        gadget.getMetadata().setName(name);
        gadget.getSpec().put("size", size);
        return gadget;
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
