package dev.operatorstarter.client;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import org.jspecify.annotations.Nullable;

/**
 * A base for custom resource classes: {@code apiVersion} and {@code kind} from the subclass's
 * {@code @Group}, {@code @Version} (and optional {@code @Kind}) annotations, {@code metadata}, and a
 * typed {@code spec} and {@code status}, so a resource class states only what is its own:
 *
 * <pre>{@code
 * @Group("sample.operatorstarter.dev")
 * @Version("v1alpha1")
 * public class StaticSite extends CustomResource<StaticSiteSpec, StaticSiteStatus> implements Namespaced {
 * }
 * }</pre>
 *
 * <p>Implement {@code Namespaced} for a namespaced resource; the plural in URLs is the kind's
 * lower-case plural unless {@code @Plural} says otherwise. Spec and status are {@code null} until
 * set or decoded; they can be records. A subclass needs a no-argument constructor for decoding.
 * Mutable and not thread-safe, like every model class: treat objects from a cache as read-only.
 *
 * @param <S> the spec's type
 * @param <T> the status's type
 */
public abstract class CustomResource<S, T> implements HasMetadata {

    private String apiVersion;
    private String kind;
    private ObjectMeta metadata = new ObjectMeta();
    private @Nullable S spec;
    private @Nullable T status;

    protected CustomResource() {
        this.apiVersion = HasMetadata.getApiVersion(getClass());
        this.kind = HasMetadata.getKind(getClass());
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

    public @Nullable S getSpec() {
        return spec;
    }

    public void setSpec(@Nullable S spec) {
        this.spec = spec;
    }

    public @Nullable T getStatus() {
        return status;
    }

    public void setStatus(@Nullable T status) {
        this.status = status;
    }
}
