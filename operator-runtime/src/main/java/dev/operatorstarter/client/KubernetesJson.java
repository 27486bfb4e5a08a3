package dev.operatorstarter.client;

import dev.operatorstarter.internal.Json;
import tools.jackson.databind.json.JsonMapper;

/**
 * The JSON mapping the client uses for Kubernetes objects, for code that must read or write
 * objects exactly as the client does: a CRD schema generated from a custom resource class, the
 * {@code JavaType} that {@link dev.operatorstarter.client.rest.Request#watch} takes, a fixture
 * written as the API server would send it.
 *
 * <p><b>Guarantees.</b> Unknown fields are ignored when reading (a newer server may add some);
 * {@code null} fields are not written (in a patch, an explicit null clears the field); a custom
 * resource class that only inherits fabric8's kind-based deserializer is read as itself, not as
 * {@code GenericKubernetesResource}; a parse error never quotes the input, so a malformed Secret
 * does not reach a log. The mapper is a Jackson 3 {@link JsonMapper}: immutable and thread-safe,
 * so sharing it is safe; {@link JsonMapper#rebuild()} starts a variant without changing this one.
 */
public final class KubernetesJson {

    private KubernetesJson() {
    }

    /** The mapper every client, informer and webhook endpoint of the runtime reads and writes objects with. */
    public static JsonMapper mapper() {
        return Json.MAPPER;
    }
}
