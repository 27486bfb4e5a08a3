package dev.operatorstarter.autoconfigure.webhook;

import dev.operatorstarter.time.TimeSource;
import dev.operatorstarter.webhook.WebhookEndpoint;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpResponseStatus;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiFunction;
import org.reactivestreams.Publisher;
import reactor.core.publisher.Mono;
import reactor.core.publisher.SignalType;
import reactor.core.scheduler.Scheduler;
import reactor.netty.http.server.HttpServerRequest;
import reactor.netty.http.server.HttpServerResponse;

/**
 * Answers one HTTP request to the webhook server: a POST of JSON to a served path is read (up to
 * the size limit), handed to the path's {@link WebhookEndpoint} on the worker scheduler (never on
 * the event loop: handlers may block), and answered 200 with the endpoint's JSON review. Anything
 * else gets a short plain-text answer: 404 for an unknown path, 405 for another method, 415 for
 * another content type, 413 for a body over the limit, 408 for a body that does not arrive within
 * {@code body-read-timeout} (counted from the headers), 429 when {@code max-concurrent-requests}
 * reviews are being read or answered already (counted from the headers to the end of the
 * answer, so slow uploads count too). Requests to served paths are measured.
 */
final class WebhookRequestHandler implements BiFunction<HttpServerRequest, HttpServerResponse, Publisher<Void>> {

    /**
     * The longest a handler may take: the API server's own limit for a webhook call
     * ({@code timeoutSeconds} is at most 30), after which nobody waits for the answer.
     */
    static final Duration HANDLER_TIMEOUT = Duration.ofSeconds(30);

    private final Map<String, WebhookEndpoint> endpoints;
    private final long maxRequestBytes;
    private final int maxConcurrentRequests;
    private final Duration bodyReadTimeout;
    private final AtomicInteger inFlight = new AtomicInteger();
    private final Scheduler workers;
    private final WebhookMetrics metrics;
    private final TimeSource time;

    WebhookRequestHandler(Map<String, WebhookEndpoint> endpoints, long maxRequestBytes, int maxConcurrentRequests,
            Duration bodyReadTimeout, Scheduler workers, WebhookMetrics metrics, TimeSource time) {
        this.bodyReadTimeout = bodyReadTimeout;
        this.endpoints = Map.copyOf(endpoints);
        this.maxRequestBytes = maxRequestBytes;
        this.maxConcurrentRequests = maxConcurrentRequests;
        this.workers = workers;
        this.metrics = metrics;
        this.time = time;
    }

    /**
     * How much of a body is read and dropped before an answer that does not need it (a 413, 404, 405
     * or 415): a connection closed with unread bytes is reset, and the reset can destroy the answer.
     * Tomcat's {@code maxSwallowSize} is the same size.
     */
    private static final long SWALLOW_BYTES = 2L * 1024 * 1024;

    /** The body was larger than the limit. */
    private static final class TooLarge extends RuntimeException {
        private static final long serialVersionUID = 1L;

        TooLarge() {
            super(null, null, false, false);
        }
    }

    /** The body did not arrive within the body-read timeout. */
    private static final class TooSlow extends RuntimeException {
        private static final long serialVersionUID = 1L;

        TooSlow() {
            super(null, null, false, false);
        }
    }

    @Override
    public Publisher<Void> apply(HttpServerRequest request, HttpServerResponse response) {
        String path = request.fullPath();
        WebhookEndpoint endpoint = endpoints.get(path);
        if (endpoint == null) {
            return dropBody(request, response).then(plain(response, HttpResponseStatus.NOT_FOUND,
                    "no webhook is served at " + path));
        }
        if (!HttpMethod.POST.equals(request.method())) {
            response.header(HttpHeaderNames.ALLOW, "POST");
            return dropBody(request, response).then(plain(response, HttpResponseStatus.METHOD_NOT_ALLOWED,
                    "webhooks take POST, not " + request.method()));
        }
        String contentType = request.requestHeaders().get(HttpHeaderNames.CONTENT_TYPE, "");
        if (!contentType.toLowerCase(java.util.Locale.ROOT).startsWith("application/json")) {
            return dropBody(request, response).then(plain(response, HttpResponseStatus.UNSUPPORTED_MEDIA_TYPE,
                    "webhooks take application/json, not '" + contentType + "'"));
        }
        long started = time.nanoTime();
        metrics.started(path);
        if (inFlight.incrementAndGet() > maxConcurrentRequests) {
            inFlight.decrementAndGet();
            response.header(HttpHeaderNames.RETRY_AFTER, "1").keepAlive(false); // its body is not read: close
            return plain(response, HttpResponseStatus.TOO_MANY_REQUESTS, "the webhook server answers "
                    + maxConcurrentRequests + " reviews at once (operator.webhook.max-concurrent-requests)")
                    .doFinally(signal -> metrics.finished(path, code(signal, response.status().code()),
                            Duration.ofNanos(time.nanoTime() - started)));
        }
        AtomicBoolean counted = new AtomicBoolean(true);
        return Mono.defer(() -> body(request)).timeout(bodyReadTimeout, Mono.error(TooSlow::new))
                .flatMap(body -> Mono.fromCallable(() -> endpoint.handle(body)).subscribeOn(workers)
                        .timeout(HANDLER_TIMEOUT))
                .flatMap(answer -> response.status(HttpResponseStatus.OK)
                        .header(HttpHeaderNames.CONTENT_TYPE, "application/json")
                        .sendByteArray(Mono.just(answer)).then())
                .onErrorResume(TooLarge.class, tooLarge -> plain(response.keepAlive(false),
                        HttpResponseStatus.REQUEST_ENTITY_TOO_LARGE, "the review is larger than "
                                + "operator.webhook.max-request-size (" + maxRequestBytes + " bytes)"))
                .onErrorResume(TooSlow.class, tooSlow -> plain(response.keepAlive(false), HttpResponseStatus.REQUEST_TIMEOUT,
                        "the review did not arrive within operator.webhook.body-read-timeout (" + bodyReadTimeout + ")"))
                .doFinally(signal -> {
                    if (counted.getAndSet(false)) {
                        inFlight.decrementAndGet();
                    }
                    metrics.finished(path, code(signal, response.status().code()),
                            Duration.ofNanos(time.nanoTime() - started));
                });
    }

    /**
     * The code to count: the response's, unless the exchange ended before one was sent. A request
     * the API server gave up on (its timeout) counts as 499, as proxies write it; a failure as 500.
     */
    static int code(SignalType signal, int responseCode) {
        return switch (signal) {
            case CANCEL -> 499;
            case ON_ERROR -> 500;
            default -> responseCode;
        };
    }

    /**
     * Reads and drops the body of a request answered without it when its announced length is at most
     * {@link #SWALLOW_BYTES}, within the body-read timeout; a chunked, longer or slower one is not
     * read and its connection is closed.
     */
    private Mono<Void> dropBody(HttpServerRequest request, HttpServerResponse response) {
        String length = request.requestHeaders().get(HttpHeaderNames.CONTENT_LENGTH);
        if (length == null || !length.matches("[0-9]{1,18}") || Long.parseLong(length) > SWALLOW_BYTES) {
            response.keepAlive(false); // a chunked or long body is not waited for: the connection is cut
            return Mono.empty();
        }
        return request.receive().then().timeout(bodyReadTimeout)
                .onErrorResume(e -> Mono.fromRunnable(() -> response.keepAlive(false)));
    }

    private Mono<byte[]> body(HttpServerRequest request) {
        String length = request.requestHeaders().get(HttpHeaderNames.CONTENT_LENGTH);
        if (length != null && length.matches("[0-9]{1,18}") && Long.parseLong(length) > maxRequestBytes) {
            // read and dropped before the 413, up to SWALLOW_BYTES past the limit
            return Long.parseLong(length) - maxRequestBytes <= SWALLOW_BYTES
                    ? request.receive().then(Mono.error(TooLarge::new)) : Mono.error(new TooLarge());
        }
        // sized for what is announced, up to 64 KB: a caller that announces megabytes and sends
        // nothing must not make the server hold them (the buffer grows as bytes arrive)
        int expected = length != null && length.matches("[0-9]{1,9}") ? Math.min(Integer.parseInt(length), 65_536) : 256;
        return request.receive().asByteArray()
                .reduce(new ByteArrayOutputStream(expected), (out, chunk) -> {
                    if (out.size() + (long) chunk.length > maxRequestBytes) {
                        throw new TooLarge(); // a chunked body over the limit is cut, not waited for
                    }
                    out.writeBytes(chunk);
                    return out;
                })
                .map(ByteArrayOutputStream::toByteArray)
                .defaultIfEmpty(new byte[0]);
    }

    private static Mono<Void> plain(HttpServerResponse response, HttpResponseStatus status, String message) {
        return response.status(status).header(HttpHeaderNames.CONTENT_TYPE, "text/plain; charset=utf-8")
                .sendString(Mono.just(message + "\n"), StandardCharsets.UTF_8).then();
    }
}
