package dev.operatorstarter.webhook;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionReview;
import java.util.Objects;

/**
 * An admission webhook as a plain function: an {@code admission.k8s.io/v1} {@link AdmissionReview}
 * in, the review with its response out, for a {@link ValidatingHandler} or a
 * {@link MutatingHandler} of one object class. Serving it over HTTPS is the caller's part (the
 * Spring Boot starter does it); tests can call it directly.
 *
 * <pre>{@code
 * AdmissionEndpoint endpoint = AdmissionEndpoint.validating(Widget.class, admission ->
 *         "invisible".equals(admission.subject().getSpec().get("colour"))
 *                 ? AdmissionVerdict.deny("a widget cannot be invisible")
 *                 : AdmissionVerdict.allow());
 * }</pre>
 *
 * <p>The object (and old object) are decoded into the class with the client's JSON mapper, so
 * unknown fields are ignored as when reading from the API server. When the class names its group
 * and version ({@code @Group}, {@code @Version}), a request for another kind or version is denied
 * (400) naming both, rather than decoded into the wrong class; check the webhook configuration's
 * rules. A body that is not an AdmissionReview and an object that does not decode give a denial
 * whose message says so (400). A handler that throws anything, an {@link Error} included (Kotlin's
 * {@code TODO()}), gives a 500 denial with a generic message: the failure, which may hold what the
 * caller must not see, is logged with the object's key. Every answer echoes the request's
 * {@code uid}, {@code apiVersion} and {@code kind}.
 */
public interface AdmissionEndpoint extends WebhookEndpoint {

    /** An endpoint that allows or denies requests for {@code type} with {@code handler}. */
    static <T extends HasMetadata> AdmissionEndpoint validating(Class<T> type, ValidatingHandler<T> handler) {
        Objects.requireNonNull(handler, "handler");
        return new HandlerEndpoint<>(new AdmissionDecoder<>(type), false, handler, (admission, sent) ->
                AdmissionReviews.response(admission.uid(), Objects.requireNonNull(handler.validate(admission),
                        "the handler returned no verdict")));
    }

    /**
     * An endpoint that answers requests for {@code type} with the JSON Patch from the object as
     * sent to the object {@code handler} returns.
     */
    static <T extends HasMetadata> AdmissionEndpoint mutating(Class<T> type, MutatingHandler<T> handler) {
        return new HandlerEndpoint<>(new AdmissionDecoder<>(type), true, handler, new MutatingResponder<>(handler));
    }

    /** The class requests are decoded into. */
    Class<? extends HasMetadata> type();

    /** Whether the endpoint mutates (answers with patches) rather than only validates. */
    boolean mutating();

    /** {@code review} answered: a new review with the response, without the request. */
    AdmissionReview review(AdmissionReview review);
}
