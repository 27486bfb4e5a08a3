package dev.operatorstarter.webhook;

import dev.operatorstarter.internal.Json;
import io.fabric8.kubernetes.api.model.Status;
import io.fabric8.kubernetes.api.model.StatusBuilder;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionRequest;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionRequestBuilder;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionResponse;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionReview;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The plumbing both admission endpoints share: the review read from JSON (keeping the object and
 * old object as sent, for decoding and patching), the response wrapped in a review that echoes
 * the request's {@code uid}, {@code apiVersion} and {@code kind}, and every failure turned into a
 * denial instead of an exception.
 */
final class AdmissionReviews {

    static final String API_VERSION = "admission.k8s.io/v1";
    static final String KIND = "AdmissionReview";
    /** The message of the 500 denial for a handler that threw: the failure itself goes to the log only. */
    static final String HANDLER_FAILED = "the admission handler failed; the webhook server's log has the error";
    /** The message of the 500 denial for a failure of the endpoint itself: the failure goes to the log only. */
    static final String ENDPOINT_FAILED = "the admission webhook failed; the webhook server's log has the error";
    private static final Logger log = LoggerFactory.getLogger(AdmissionReviews.class);

    private AdmissionReviews() {
    }

    /** Answers one request; {@code object} and {@code oldObject} are the JSON as sent, or null. */
    interface Responder {
        AdmissionResponse respond(AdmissionRequest request, @Nullable JsonNode object, @Nullable JsonNode oldObject);
    }

    /**
     * The answer to {@code body}, never an exception: whatever fails past the handler's own
     * isolation (a failure of ours) is a 500 denial with a generic message, the failure logged.
     */
    static byte[] handle(byte[] body, Responder responder) {
        try {
            return decodeAndAnswer(body, responder);
        } catch (Throwable e) {
            log.warn("An admission request could not be answered", e);
            return encode(review(null, null, denial(null, 500, "InternalError", ENDPOINT_FAILED)));
        }
    }

    private static byte[] decodeAndAnswer(byte[] body, Responder responder) {
        ObjectNode tree;
        try {
            JsonNode parsed = Json.MAPPER.readTree(body);
            if (!(parsed instanceof ObjectNode object) || !object.path("request").isObject()) {
                return encode(review(null, null, denial(null, 400, "BadRequest",
                        "the request body is not an AdmissionReview with a request")));
            }
            tree = object;
        } catch (JacksonException e) {
            return encode(review(null, null, denial(null, 400, "BadRequest",
                    "the request body is not JSON: " + e.getOriginalMessage())));
        }
        ObjectNode requestNode = (ObjectNode) tree.get("request");
        JsonNode object = present(requestNode.remove("object"));
        JsonNode oldObject = present(requestNode.remove("oldObject"));
        String uid = requestNode.path("uid").asString("");
        AdmissionReview review;
        try {
            review = Json.MAPPER.treeToValue(tree, AdmissionReview.class);
        } catch (JacksonException e) {
            return encode(review(text(tree, "apiVersion"), text(tree, "kind"), denial(uid, 400, "BadRequest",
                    "the request body is not an AdmissionReview: " + e.getOriginalMessage())));
        }
        return encode(answer(review, object, oldObject, responder));
    }

    static AdmissionReview review(AdmissionReview review, Responder responder) {
        AdmissionRequest request = review.getRequest();
        if (request == null) {
            return review(review.getApiVersion(), review.getKind(), denial(null, 400, "BadRequest",
                    "the AdmissionReview has no request"));
        }
        JsonNode object = request.getObject() == null ? null : Json.MAPPER.valueToTree(request.getObject());
        JsonNode oldObject = request.getOldObject() == null ? null : Json.MAPPER.valueToTree(request.getOldObject());
        AdmissionReview withoutObjects = new AdmissionReview(review.getApiVersion(), review.getKind(),
                new AdmissionRequestBuilder(request).withObject(null).withOldObject(null).build(), null);
        return answer(withoutObjects, object, oldObject, responder);
    }

    private static AdmissionReview answer(AdmissionReview review, @Nullable JsonNode object,
            @Nullable JsonNode oldObject, Responder responder) {
        AdmissionRequest request = review.getRequest();
        AdmissionResponse response;
        try {
            response = responder.respond(request, object, oldObject);
        } catch (Throwable e) {
            // the endpoints catch the handler's own failures; this is a failure of ours, still answered
            log.warn("Admission request {} for {} failed", request.getUid(), describe(request), e);
            response = denial(request.getUid(), 500, "InternalError", ENDPOINT_FAILED);
        }
        response.setUid(request.getUid() == null ? "" : request.getUid()); // always present, as the API expects
        return review(review.getApiVersion(), review.getKind(), response);
    }

    static AdmissionResponse denial(@Nullable String uid, int code, String reason, String message) {
        Status status = new StatusBuilder().withStatus("Failure").withCode(code).withReason(reason)
                .withMessage(message).build();
        AdmissionResponse response = new AdmissionResponse();
        response.setUid(uid == null ? "" : uid);
        response.setAllowed(false);
        response.setStatus(status);
        return response;
    }

    /** The response a handler's verdict gives. */
    static AdmissionResponse response(String uid, AdmissionVerdict verdict) {
        AdmissionResponse response = verdict.allowed() ? new AdmissionResponse()
                : denial(uid, verdict.code(), verdict.reason() == null ? "Forbidden" : verdict.reason(),
                        verdict.message());
        response.setUid(uid);
        response.setAllowed(verdict.allowed());
        if (!verdict.warnings().isEmpty()) {
            response.setWarnings(List.copyOf(verdict.warnings()));
        }
        return response;
    }

    /**
     * A 500 denial for a handler that threw, logged once with the object's key. The message is
     * generic: an exception's text may hold what the caller must not see (a token, another
     * object's content), so it goes to the log only.
     */
    static AdmissionResponse handlerFailed(AdmissionRequest request, Throwable failure) {
        log.warn("The admission handler failed on {} request {} for {}", request.getOperation(), request.getUid(),
                describe(request), failure);
        return denial(request.getUid(), 500, "InternalError", HANDLER_FAILED);
    }

    /** {@code kind namespace/name}, for messages and logs. */
    static String describe(AdmissionRequest request) {
        String kind = request.getKind() == null ? "object" : request.getKind().getKind();
        String name = request.getName() == null || request.getName().isEmpty() ? "(name to be generated)"
                : request.getName();
        return kind + " " + (request.getNamespace() == null || request.getNamespace().isEmpty() ? ""
                : request.getNamespace() + "/") + name;
    }

    private static AdmissionReview review(@Nullable String apiVersion, @Nullable String kind,
            AdmissionResponse response) {
        return new AdmissionReview(apiVersion == null || apiVersion.isEmpty() ? API_VERSION : apiVersion,
                kind == null || kind.isEmpty() ? KIND : kind, null, response);
    }

    private static byte[] encode(AdmissionReview review) {
        return Json.MAPPER.writeValueAsBytes(review);
    }

    private static @Nullable JsonNode present(@Nullable JsonNode node) {
        return node == null || node.isNull() ? null : node;
    }

    private static @Nullable String text(JsonNode tree, String field) {
        JsonNode value = tree.get(field);
        return value != null && value.isString() ? value.asString() : null;
    }
}
