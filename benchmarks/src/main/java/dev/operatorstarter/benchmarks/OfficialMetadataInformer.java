package dev.operatorstarter.benchmarks;

import io.kubernetes.client.common.KubernetesListObject;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.common.KubernetesType;
import io.kubernetes.client.informer.SharedIndexInformer;
import io.kubernetes.client.informer.SharedInformerFactory;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.models.V1ListMeta;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.util.generic.GenericKubernetesApi;
import java.io.IOException;
import java.util.List;
import okhttp3.Interceptor;
import okhttp3.Request;
import okhttp3.Response;

/**
 * The official client's nearest equivalent of a metadata-only informer, assembled from its public
 * parts, since client-java 25.0.0 ships none: no {@code PartialObjectMetadata} model either, and
 * while {@code GenericKubernetesApi} can list as {@code PartialObjectMetadataList}
 * ({@code ListOptions.isPartialObjectMetadataListRequest}), its watch always asks for full objects
 * and the informer's lister-watcher does not set the option.
 *
 * <p>So: a three-field model ({@link PartialObject}: apiVersion, kind and the client's own
 * {@code V1ObjectMeta}) and its list, read by Gson like any model; the stock
 * {@code SharedInformerFactory} over a {@code GenericKubernetesApi} of them; and an OkHttp
 * interceptor on a client of its own that asks for the metadata form on every list and watch,
 * as client-go's metadata informer does. The cache then holds what the server sends:
 * {@code managedFields} included, since the official informer has no transform.
 */
final class OfficialMetadataInformer {

    static final String ACCEPT_LIST = "application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,application/json";
    static final String ACCEPT_WATCH = "application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1,application/json";

    private OfficialMetadataInformer() {
    }

    /**
     * A metadata-only informer of core/v1 {@code plural} in {@code namespace}, registered with
     * {@code factory}, whose client must be {@code client}: the interceptor applies to all its requests.
     */
    static SharedIndexInformer<PartialObject> register(SharedInformerFactory factory, ApiClient client, String plural,
            String namespace) {
        client.setHttpClient(client.getHttpClient().newBuilder().addInterceptor(OfficialMetadataInformer::negotiate).build());
        return factory.sharedIndexInformerFor(new GenericKubernetesApi<>(PartialObject.class, PartialObjectList.class, "",
                "v1", plural, client), PartialObject.class, 0L, namespace);
    }

    /** Asks for the metadata form: one object per event on a watch, a list otherwise. */
    private static Response negotiate(Interceptor.Chain chain) throws IOException {
        Request request = chain.request();
        if (!request.method().equals("GET")) {
            return chain.proceed(request);
        }
        boolean watch = "true".equals(request.url().queryParameter("watch"));
        return chain.proceed(request.newBuilder().header("Accept", watch ? ACCEPT_WATCH : ACCEPT_LIST).build());
    }

    /** The type fields every Kubernetes object and list has. Read by Gson's reflection, like its subclasses' fields. */
    abstract static class Typed implements KubernetesType {

        private String apiVersion;
        private String kind;

        @Override
        public String getApiVersion() {
            return apiVersion;
        }

        @Override
        public String getKind() {
            return kind;
        }
    }

    /** {@code meta.k8s.io/v1 PartialObjectMetadata}: what the server sends of each object. */
    static final class PartialObject extends Typed implements KubernetesObject {

        private V1ObjectMeta metadata;

        @Override
        public V1ObjectMeta getMetadata() {
            return metadata;
        }
    }

    /** {@code meta.k8s.io/v1 PartialObjectMetadataList}. */
    static final class PartialObjectList extends Typed implements KubernetesListObject {

        private V1ListMeta metadata;
        private List<PartialObject> items;

        @Override
        public V1ListMeta getMetadata() {
            return metadata;
        }

        @Override
        public List<PartialObject> getItems() {
            return items == null ? List.of() : items;
        }
    }
}
