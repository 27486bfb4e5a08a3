package dev.operatorstarter.webhook;

/**
 * The logic of a mutating admission webhook: return the object as it should be stored, for
 * defaults and normalisation. The runtime answers with an RFC 6902 JSON Patch from the object as
 * the API server sent it to the one returned ({@link JsonPatch}); fields the handler's class does
 * not declare are left as they were sent.
 *
 * <p>Contract: as for {@link ValidatingHandler} (quick, no side effects on a dry run, may be called
 * more than once, concurrent). Be idempotent: the API server may call a mutating webhook again
 * after other webhooks changed the object ({@code reinvocationPolicy: IfNeeded}). The handler owns
 * {@link Admission#object()}: change it in place and return it with {@link Mutation#allow}, or
 * return another object. For a DELETE or CONNECT there is nothing to patch, so only the verdict
 * counts.
 *
 * <p>Errors: a thrown exception denies the request with HTTP code 500 and a message naming it.
 *
 * @param <T> the class objects are decoded into: a fabric8 model class or a custom resource class
 */
@FunctionalInterface
public interface MutatingHandler<T> {

    Mutation<T> mutate(Admission<T> admission) throws Exception;
}
