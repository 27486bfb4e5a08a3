package dev.operatorstarter.webhook;

import dev.operatorstarter.internal.Json;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionResponse;
import java.util.Base64;
import java.util.Objects;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * A mutating handler's answer as a response: its verdict, and a JSON Patch from the object as sent
 * to the object it returned, through {@link HandlerChanges} so only what the handler changed is
 * patched. No patch when nothing changed, or for a request without an object (DELETE, CONNECT).
 */
final class MutatingResponder<T> implements HandlerEndpoint.Responder<T> {

    private static final String JSON_PATCH = "JSONPatch";

    private final MutatingHandler<T> handler;

    MutatingResponder(MutatingHandler<T> handler) {
        this.handler = Objects.requireNonNull(handler, "handler");
    }

    @Override
    public AdmissionResponse respond(Admission<T> admission, @Nullable JsonNode sent) throws Exception {
        // as decoded, before the handler can change the object in place
        JsonNode decoded = admission.object() == null ? null : AdmissionDecoder.json(admission.object());
        Mutation<T> mutation = Objects.requireNonNull(handler.mutate(admission), "the handler returned no mutation");
        AdmissionResponse response = AdmissionReviews.response(admission.uid(), mutation.verdict());
        if (mutation.verdict().allowed() && sent != null && decoded != null && mutation.object() != null) {
            JsonNode changed = AdmissionDecoder.json(mutation.object());
            JsonPatch patch = JsonPatch.diff(sent, HandlerChanges.over(sent, decoded, changed));
            if (!patch.isEmpty()) {
                response.setPatchType(JSON_PATCH);
                response.setPatch(Base64.getEncoder().encodeToString(Json.MAPPER.writeValueAsBytes(patch.toJson())));
            }
        }
        return response;
    }
}
