package dev.operatorstarter.client.rest;

import dev.operatorstarter.client.config.ClientConfig;
import dev.operatorstarter.client.config.RedactedUri;
import dev.operatorstarter.internal.Json;
import io.fabric8.kubernetes.api.model.Status;
import io.fabric8.kubernetes.api.model.StatusBuilder;
import io.fabric8.kubernetes.api.model.StatusDetails;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeoutException;
import javax.net.ssl.SSLException;
import org.springframework.core.codec.DecodingException;
import org.springframework.core.io.buffer.DataBufferLimitException;
import org.springframework.http.HttpHeaders;
import org.springframework.web.reactive.function.client.ClientResponse;
import org.springframework.web.reactive.function.client.WebClientRequestException;
import reactor.core.publisher.Mono;
import tools.jackson.core.JacksonException;

/**
 * Turns what went wrong with a request into the client's exceptions, each naming the request
 * (method and redacted URL): an answer with an error status becomes an {@link ApiException} made
 * from the server's {@link Status} (or one made from the HTTP code when the body is something
 * else, with a {@code Retry-After} header carried into its details); a timeout, a response over
 * {@code maxResponseBytes}, a body that is not JSON, a failed TLS handshake or connection becomes a
 * {@link KubernetesClientException} (or {@link ResponseTooLargeException}) that says which.
 */
final class StatusTranslator {

    private final ClientConfig config;
    private final ClientOptions options;

    StatusTranslator(ClientConfig config, ClientOptions options) {
        this.config = config;
        this.options = options;
    }

    /** The {@link ApiException} of an answer with an error status, once its body is read. */
    static <T> Mono<T> error(ClientResponse response, HttpTransport.RequestSpec spec) {
        return response.bodyToMono(byte[].class).defaultIfEmpty(new byte[0])
                .flatMap(bytes -> Mono.error(ApiException.fromStatus(
                        status(response.statusCode().value(), bytes, response.headers().asHttpHeaders()),
                        spec.describe())));
    }

    /** The Status in {@code body}, or one made from the HTTP code when the body is something else. */
    static Status status(int code, byte[] body, HttpHeaders headers) {
        Status status = null;
        if (body.length > 0 && body[0] == '{') {
            try {
                Status parsed = Json.MAPPER.readValue(body, Status.class);
                if ("Status".equals(parsed.getKind())) {
                    status = parsed;
                }
            } catch (JacksonException e) {
                // not a Status: described below
            }
        }
        if (status == null) {
            String text = new String(body, 0, Math.min(body.length, 256), StandardCharsets.UTF_8).strip();
            status = new StatusBuilder().withKind("Status").withApiVersion("v1").withStatus("Failure")
                    .withCode(code).withReason(ApiException.reasonForCode(code))
                    .withMessage("the server answered " + code + (text.isEmpty() ? "" : ": " + text)).build();
        }
        if (status.getCode() == null || status.getCode() == 0) {
            status.setCode(code);
        }
        String retryAfter = headers.getFirst(HttpHeaders.RETRY_AFTER);
        if (retryAfter != null) {
            try {
                int seconds = Integer.parseInt(retryAfter.trim());
                if (status.getDetails() == null) {
                    status.setDetails(new StatusDetails());
                }
                if (status.getDetails().getRetryAfterSeconds() == null || status.getDetails().getRetryAfterSeconds() == 0) {
                    status.getDetails().setRetryAfterSeconds(seconds);
                }
            } catch (NumberFormatException e) {
                // an HTTP date: rare from the API server; fall back to our backoff
            }
        }
        return status;
    }

    /** {@code error} as the client's exception for {@code spec}; a client exception passes through. */
    Throwable translate(Throwable error, HttpTransport.RequestSpec spec) {
        if (error instanceof KubernetesClientException) {
            return error;
        }
        if (error instanceof TimeoutException) {
            return spec.deadline() != null
                    ? new KubernetesClientException(spec.describe() + " timed out after its deadline of "
                            + spec.deadline().toMillis() + " ms", error)
                    : new KubernetesClientException(spec.describe() + " timed out after "
                            + options.requestTimeout().toMillis() + " ms (requestTimeout)", error);
        }
        if (overLimit(error)) {
            return new ResponseTooLargeException("response to " + spec.describe() + " exceeded the "
                    + ByteSizes.describe(options.maxResponseBytes()) + " limit (ClientOptions.maxResponseBytes)", error);
        }
        if (error instanceof DecodingException || error instanceof JacksonException) {
            return new KubernetesClientException(spec.describe() + " returned a body that is not valid JSON: "
                    + rootMessage(error), error);
        }
        if (error instanceof WebClientRequestException || error instanceof IOException) {
            Throwable root = error instanceof WebClientRequestException ? error.getCause() : error;
            if (root instanceof SSLException) {
                return new KubernetesClientException(spec.describe() + " failed in the TLS handshake with "
                        + new RedactedUri(config.server()) + " (" + config.source() + "): " + rootMessage(root), error);
            }
            return new KubernetesClientException(spec.describe() + " failed: " + rootMessage(error), error);
        }
        return error;
    }

    /** Whether a codec read stopped at maxInMemorySize: WebClient may wrap that in a response exception. */
    private static boolean overLimit(Throwable error) {
        for (Throwable cause = error; cause != null; cause = cause.getCause() == cause ? null : cause.getCause()) {
            if (cause instanceof DataBufferLimitException) {
                return true;
            }
        }
        return false;
    }

    private static String rootMessage(Throwable error) {
        Throwable root = error;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        String message = root.getMessage();
        return message == null ? root.getClass().getSimpleName() : message;
    }
}
