package dev.operatorstarter.webhook;

/**
 * The logic of a validating admission webhook: allow or deny a request for objects of one class.
 *
 * <p>Contract: decide from the request alone, quickly (the API server waits, within the webhook
 * configuration's {@code timeoutSeconds}, at most 30 s), and without side effects when
 * {@link Admission#dryRun()} is set. The same request may come more than once. Calls run at once on
 * different threads (never on a network event loop), so blocking is allowed but costs a thread.
 *
 * <p>Errors: a thrown exception denies the request with HTTP code 500 and a message naming the
 * exception; it never breaks the HTTP answer. Whether the API server then refuses or admits the
 * request is the webhook configuration's choice ({@code failurePolicy}) only when the webhook
 * cannot be called; a denial is always a refusal.
 *
 * @param <T> the class objects are decoded into: a fabric8 model class or a custom resource class
 */
@FunctionalInterface
public interface ValidatingHandler<T> {

    AdmissionVerdict validate(Admission<T> admission) throws Exception;
}
