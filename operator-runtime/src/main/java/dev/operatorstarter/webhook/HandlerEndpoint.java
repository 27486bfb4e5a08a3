package dev.operatorstarter.webhook;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionRequest;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionResponse;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionReview;
import java.util.Objects;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * {@link AdmissionEndpoint} over one handler: the request decoded into the handler's class (a 400
 * denial when it cannot be), then the handler's answer turned into the response (a 500 denial when
 * the handler throws anything, an {@link Error} included, with a generic message: the failure goes
 * to the log only). What the answer is differs by kind: a verdict for a validating handler
 * ({@link AdmissionEndpoint#validating}), a verdict and a patch for a mutating one
 * ({@link MutatingResponder}).
 */
final class HandlerEndpoint<T extends HasMetadata> implements AdmissionEndpoint {

    /** The response to a decoded request; {@code sent} is its object as the API server sent it, or null. */
    @FunctionalInterface
    interface Responder<T> {
        AdmissionResponse respond(Admission<T> admission, @Nullable JsonNode sent) throws Exception;
    }

    private final AdmissionDecoder<T> decoder;
    private final boolean mutating;
    private final Object handler;
    private final Responder<T> responder;

    HandlerEndpoint(AdmissionDecoder<T> decoder, boolean mutating, Object handler, Responder<T> responder) {
        this.decoder = decoder;
        this.mutating = mutating;
        this.handler = Objects.requireNonNull(handler, "handler");
        this.responder = responder;
    }

    @Override
    public Class<? extends HasMetadata> type() {
        return decoder.type();
    }

    @Override
    public boolean mutating() {
        return mutating;
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
        try {
            return responder.respond(admission, object);
        } catch (Throwable e) { // any Error too (Kotlin's TODO()): a request left unanswered would be admitted under Ignore
            return AdmissionReviews.handlerFailed(request, e);
        }
    }

    @Override
    public String toString() {
        return (mutating ? "mutating " : "validating ") + decoder.type().getSimpleName() + " with " + handler;
    }
}
