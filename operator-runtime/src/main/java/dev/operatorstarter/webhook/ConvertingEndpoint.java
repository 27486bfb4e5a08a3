package dev.operatorstarter.webhook;

import dev.operatorstarter.internal.Json;
import io.fabric8.kubernetes.api.model.Status;
import io.fabric8.kubernetes.api.model.StatusBuilder;
import io.fabric8.kubernetes.api.model.apiextensions.v1.ConversionRequest;
import io.fabric8.kubernetes.api.model.apiextensions.v1.ConversionResponse;
import io.fabric8.kubernetes.api.model.apiextensions.v1.ConversionReview;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/** {@link ConversionEndpoint} over {@link ConversionRoutes}: the review's plumbing and its failures. */
final class ConvertingEndpoint implements ConversionEndpoint {

    static final String API_VERSION = "apiextensions.k8s.io/v1";
    static final String KIND = "ConversionReview";
    /** The Failure's message for a failure of ours: the failure goes to the log only. */
    static final String CONVERSION_FAILED = "the conversion webhook failed; the webhook server's log has the error";
    private static final Logger log = LoggerFactory.getLogger(ConvertingEndpoint.class);

    private final ConversionRoutes routes;

    ConvertingEndpoint(ConversionRoutes routes) {
        this.routes = routes;
    }

    @Override
    public Set<String> versions() {
        return routes.versions();
    }

    /** Never throws: a failure of ours past the converters' own isolation is a Failure with a generic message. */
    @Override
    public byte[] handle(byte[] requestBody) {
        try {
            return decodeAndConvert(requestBody);
        } catch (Throwable e) {
            log.warn("A conversion request could not be answered", e);
            return encode(review(null, null, failure("", CONVERSION_FAILED)));
        }
    }

    private byte[] decodeAndConvert(byte[] requestBody) {
        ObjectNode tree;
        try {
            JsonNode parsed = Json.MAPPER.readTree(requestBody);
            if (!(parsed instanceof ObjectNode object) || !object.path("request").isObject()) {
                return encode(review(null, null, failure("", "the request body is not a ConversionReview with a request")));
            }
            tree = object;
        } catch (JacksonException e) {
            return encode(review(null, null, failure("", "the request body is not JSON: " + e.getOriginalMessage())));
        }
        ObjectNode request = (ObjectNode) tree.get("request");
        JsonNode objects = request.remove("objects");
        String uid = request.path("uid").asString("");
        String desired = request.path("desiredAPIVersion").asString("");
        List<JsonNode> list = new ArrayList<>();
        if (objects != null && objects.isArray()) {
            objects.forEach(list::add);
        }
        return encode(review(text(tree, "apiVersion"), text(tree, "kind"), convert(uid, desired, list)));
    }

    @Override
    public ConversionReview review(ConversionReview review) {
        ConversionRequest request = review.getRequest();
        if (request == null) {
            return review(review.getApiVersion(), review.getKind(), failure("", "the ConversionReview has no request"));
        }
        List<JsonNode> objects = new ArrayList<>();
        if (request.getObjects() != null) {
            request.getObjects().forEach(object -> objects.add(Json.MAPPER.valueToTree(object)));
        }
        return review(review.getApiVersion(), review.getKind(), convert(request.getUid() == null ? ""
                : request.getUid(), request.getDesiredAPIVersion() == null ? "" : request.getDesiredAPIVersion(), objects));
    }

    private ConversionResponse convert(String uid, String desired, List<JsonNode> objects) {
        if (desired.isEmpty()) {
            return failure(uid, "the ConversionReview's request has no desiredAPIVersion");
        }
        List<Object> converted = new ArrayList<>(objects.size());
        for (JsonNode object : objects) {
            try {
                converted.add(routes.convert(object, desired));
            } catch (ConversionRoutes.Unconvertible e) {
                log.warn("Conversion request {} to {} failed: {}", uid, desired, e.getMessage(), e.getCause());
                return failure(uid, e.getMessage());
            } catch (Throwable e) {
                log.warn("Conversion request {} to {} failed on {}", uid, desired, ConversionRoutes.describe(object), e);
                return failure(uid, "converting " + ConversionRoutes.describe(object) + " to " + desired
                        + " failed: " + CONVERSION_FAILED);
            }
        }
        Status success = new StatusBuilder().withStatus("Success").build();
        return new ConversionResponse(converted, success, uid);
    }

    private static ConversionResponse failure(String uid, String message) {
        return new ConversionResponse(List.of(), new StatusBuilder().withStatus("Failure").withMessage(message).build(),
                uid);
    }

    private static ConversionReview review(@Nullable String apiVersion, @Nullable String kind,
            ConversionResponse response) {
        return new ConversionReview(apiVersion == null || apiVersion.isEmpty() ? API_VERSION : apiVersion,
                kind == null || kind.isEmpty() ? KIND : kind, null, response);
    }

    private static byte[] encode(ConversionReview review) {
        return Json.MAPPER.writeValueAsBytes(review);
    }

    private static @Nullable String text(JsonNode tree, String field) {
        JsonNode value = tree.get(field);
        return value != null && value.isString() ? value.asString() : null;
    }

    @Override
    public String toString() {
        return "converting " + routes.kind() + " between " + routes.versions();
    }
}
