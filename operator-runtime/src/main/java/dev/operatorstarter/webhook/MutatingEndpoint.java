package dev.operatorstarter.webhook;

import dev.operatorstarter.internal.Json;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionRequest;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionResponse;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionReview;
import java.util.Base64;
import java.util.Objects;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * {@link AdmissionEndpoint#mutating}: the handler's object becomes a JSON Patch from the object as
 * sent, through {@link HandlerChanges} so only what the handler changed is patched.
 */
final class MutatingEndpoint<T extends HasMetadata> implements AdmissionEndpoint {

    private static final String JSON_PATCH = "JSONPatch";

    private final AdmissionDecoder<T> decoder;
    private final MutatingHandler<T> handler;

    MutatingEndpoint(AdmissionDecoder<T> decoder, MutatingHandler<T> handler) {
        this.decoder = decoder;
        this.handler = Objects.requireNonNull(handler, "handler");
    }

    @Override
    public Class<? extends HasMetadata> type() {
        return decoder.type();
    }

    @Override
    public boolean mutating() {
        return true;
    }

    @Override
    public byte[] handle(byte[] requestBody) {
        return AdmissionReviews.handle(requestBody, this::respond);
    }

    @Override
    public AdmissionReview review(AdmissionReview review) {
        return AdmissionReviews.review(review, this::respond);
    }

    private AdmissionResponse respond(AdmissionRequest request, @Nullable JsonNode object,
            @Nullable JsonNode oldObject) {
        Admission<T> admission;
        try {
            admission = decoder.decode(request, object, oldObject);
        } catch (AdmissionDecoder.Undecodable e) {
            return AdmissionReviews.denial(request.getUid(), 400, "BadRequest", e.getMessage());
        }
        // as decoded, before the handler can change the object in place
        JsonNode decoded = admission.object() == null ? null : AdmissionDecoder.json(admission.object());
        Mutation<T> mutation;
        JsonNode changed;
        try {
            mutation = Objects.requireNonNull(handler.mutate(admission), "the handler returned no mutation");
            changed = mutation.object() == null ? null : AdmissionDecoder.json(mutation.object());
        } catch (Exception | StackOverflowError | LinkageError | AssertionError e) {
            return AdmissionReviews.handlerFailed(request, e);
        }
        AdmissionResponse response = AdmissionReviews.response(admission.uid(), mutation.verdict());
        if (mutation.verdict().allowed() && object != null && decoded != null && changed != null) {
            JsonPatch patch = JsonPatch.diff(object, HandlerChanges.over(object, decoded, changed));
            if (!patch.isEmpty()) {
                response.setPatchType(JSON_PATCH);
                response.setPatch(Base64.getEncoder().encodeToString(Json.MAPPER.writeValueAsBytes(patch.toJson())));
            }
        }
        return response;
    }

    @Override
    public String toString() {
        return "mutating " + decoder.type().getSimpleName() + " with " + handler;
    }
}
