/**
 * The REST layer (client-go's {@code rest} and {@code transport}): {@link
 * dev.operatorstarter.client.rest.RestClient} and its fluent {@link
 * dev.operatorstarter.client.rest.Request}, the transport options ({@link
 * dev.operatorstarter.client.rest.ClientOptions}: timeouts, token bucket, retries, interceptors,
 * metrics), watch events, and the API errors ({@link dev.operatorstarter.client.rest.ApiException},
 * {@link dev.operatorstarter.client.rest.ApiErrors}).
 *
 * <p>Guarantees: credentials never appear in messages or logs; a 401 is retried once when a fresh
 * credential exists (a rotated token file, an exec plugin); 429 is retried for every method and
 * 503, 504 and connection resets for idempotent ones, honouring {@code Retry-After}; bodies are
 * decoded from bytes, and watches event by event.
 */
@NullMarked
package dev.operatorstarter.client.rest;

import org.jspecify.annotations.NullMarked;
