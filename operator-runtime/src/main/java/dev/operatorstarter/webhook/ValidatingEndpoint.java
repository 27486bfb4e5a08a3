package dev.operatorstarter.webhook;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionRequest;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionResponse;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionReview;
import java.util.Objects;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/** {@link AdmissionEndpoint#validating}: the handler's verdict is the response. */
final class ValidatingEndpoint<T extends HasMetadata> implements AdmissionEndpoint {

    private final AdmissionDecoder<T> decoder;
    private final ValidatingHandler<T> handler;

    ValidatingEndpoint(AdmissionDecoder<T> decoder, ValidatingHandler<T> handler) {
        this.decoder = decoder;
        this.handler = Objects.requireNonNull(handler, "handler");
    }

    @Override
    public Class<? extends HasMetadata> type() {
        return decoder.type();
    }

    @Override
    public boolean mutating() {
        return false;
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
        AdmissionVerdict verdict;
        try {
            verdict = Objects.requireNonNull(handler.validate(admission), "the handler returned no verdict");
        } catch (Exception | StackOverflowError | LinkageError | AssertionError e) {
            return AdmissionReviews.handlerFailed(request, e);
        }
        return AdmissionReviews.response(admission.uid(), verdict);
    }

    @Override
    public String toString() {
        return "validating " + decoder.type().getSimpleName() + " with " + handler;
    }
}
