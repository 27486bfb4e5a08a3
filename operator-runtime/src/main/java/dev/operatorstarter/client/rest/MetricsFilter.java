package dev.operatorstarter.client.rest;

import dev.operatorstarter.time.TimeSource;
import java.net.URI;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.web.reactive.function.client.ExchangeFilterFunction;
import reactor.core.publisher.Mono;

/**
 * The filter that reports every request to {@link RequestMetrics}, once, when its response
 * headers arrive (with the status code), or when it fails or is abandoned before them (code
 * {@code <error>}), as client-go's {@code rest_client_requests_total} counts; WebSocket upgrades
 * too ({@link #webSocket}). A failing metrics callback is logged and does not fail the request.
 */
final class MetricsFilter {

    private static final Logger log = LoggerFactory.getLogger(HttpTransport.class);

    private MetricsFilter() {
    }

    /** The filter for requests to {@code server}; a no-op with {@link RequestMetrics#NONE}. */
    static ExchangeFilterFunction of(RequestMetrics metrics, URI server, TimeSource time) {
        if (metrics == RequestMetrics.NONE) {
            return (request, next) -> next.exchange(request);
        }
        String host = host(server);
        return (request, next) -> timed(next.exchange(request), metrics, request.method().name(), host, time,
                response -> Integer.toString(response.statusCode().value()));
    }

    /**
     * A WebSocket's upgrade to {@code server}, reported like any request: code 101 once the socket is
     * open, the refusal's status code (a 401, a 403), or {@code <error>}.
     */
    static <T> Mono<T> webSocket(Mono<T> upgrade, RequestMetrics metrics, URI server, TimeSource time) {
        if (metrics == RequestMetrics.NONE) {
            return upgrade;
        }
        return timed(upgrade, metrics, "GET", host(server), time, opened -> "101");
    }

    private static <T> Mono<T> timed(Mono<T> exchange, RequestMetrics metrics, String method, String host,
            TimeSource time, Function<T, String> code) {
        return Mono.defer(() -> {
            long started = time.nanoTime();
            AtomicBoolean recorded = new AtomicBoolean();
            return exchange
                    .doOnNext(response -> {
                        if (recorded.compareAndSet(false, true)) {
                            record(metrics, method, host, code.apply(response), time.since(started));
                        }
                    })
                    .doOnError(e -> {
                        if (recorded.compareAndSet(false, true)) {
                            record(metrics, method, host, e instanceof ApiException refused && refused.code() > 0
                                    ? Integer.toString(refused.code()) : "<error>", time.since(started));
                        }
                    })
                    .doOnCancel(() -> { // timed out or abandoned before the response headers
                        if (recorded.compareAndSet(false, true)) {
                            record(metrics, method, host, "<error>", time.since(started));
                        }
                    });
        });
    }

    private static String host(URI server) {
        return server.getPort() > 0 ? server.getHost() + ":" + server.getPort() : server.getHost();
    }

    private static void record(RequestMetrics metrics, String method, String host, String code, Duration took) {
        try {
            metrics.requestCompleted(method, host, code, took);
        } catch (RuntimeException e) {
            log.warn("Request metrics callback failed: {}", e.toString());
        }
    }
}
