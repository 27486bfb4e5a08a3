package dev.operatorstarter.webhook;

/**
 * What a webhook server calls for one path: the JSON body of the API server's request in, the
 * JSON body to answer with out.
 *
 * <p>Guarantees: never throws and never returns an empty answer. A body that is not the review
 * the endpoint expects, an object that cannot be decoded, and a handler that fails all give a
 * well-formed review that says what went wrong (a denial for admission, {@code Failure} for
 * conversion), to be sent with HTTP status 200. Thread-safe: a server calls it for many requests
 * at once. It blocks while the handler runs, so call it off network event loops.
 */
public interface WebhookEndpoint {

    /** The JSON review answering the JSON review {@code requestBody}. */
    byte[] handle(byte[] requestBody);
}
