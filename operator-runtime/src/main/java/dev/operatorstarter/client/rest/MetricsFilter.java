package dev.operatorstarter.client.rest;

import dev.operatorstarter.time.TimeSource;
import java.net.URI;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.web.reactive.function.client.ClientRequest;
import org.springframework.web.reactive.function.client.ExchangeFilterFunction;
import reactor.core.publisher.Mono;

/**
 * The filter that reports every request to {@link RequestMetrics}, once, when its response
 * headers arrive (with the status code), or when it fails or is abandoned before them (code
 * {@code <error>}), as client-go's {@code rest_client_requests_total} counts. A failing metrics
 * callback is logged and does not fail the request.
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
        String host = server.getPort() > 0 ? server.getHost() + ":" + server.getPort() : server.getHost();
        return (request, next) -> Mono.defer(() -> {
            long started = time.nanoTime();
            AtomicBoolean recorded = new AtomicBoolean();
            return next.exchange(request)
                    .doOnNext(response -> {
                        if (recorded.compareAndSet(false, true)) {
                            record(metrics, request, host, Integer.toString(response.statusCode().value()),
                                    time.since(started));
                        }
                    })
                    .doOnError(e -> {
                        if (recorded.compareAndSet(false, true)) {
                            record(metrics, request, host, "<error>", time.since(started));
                        }
                    })
                    .doOnCancel(() -> { // timed out or abandoned before the response headers
                        if (recorded.compareAndSet(false, true)) {
                            record(metrics, request, host, "<error>", time.since(started));
                        }
                    });
        });
    }

    private static void record(RequestMetrics metrics, ClientRequest request, String host, String code, Duration took) {
        try {
            metrics.requestCompleted(request.method().name(), host, code, took);
        } catch (RuntimeException e) {
            log.warn("Request metrics callback failed: {}", e.toString());
        }
    }
}
