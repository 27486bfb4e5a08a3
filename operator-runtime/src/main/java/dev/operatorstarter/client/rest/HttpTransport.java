package dev.operatorstarter.client.rest;

import dev.operatorstarter.client.config.ClientConfig;
import dev.operatorstarter.client.config.RedactedUri;
import dev.operatorstarter.internal.Json;
import io.micrometer.observation.Observation;
import io.netty.channel.ChannelOption;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.client.reactive.ReactorClientHttpConnector;
import org.springframework.http.codec.json.JacksonJsonDecoder;
import org.springframework.http.codec.json.JacksonJsonEncoder;
import org.springframework.web.reactive.function.client.ClientResponse;
import org.springframework.web.reactive.function.client.ExchangeStrategies;
import org.springframework.web.reactive.function.client.WebClient;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.netty.http.client.HttpClient;
import reactor.netty.resources.ConnectionProvider;
import reactor.netty.resources.LoopResources;
import reactor.netty.transport.ProxyProvider;
import reactor.util.context.Context;

/**
 * The HTTP layer: a {@link WebClient} on Reactor Netty with the configuration's TLS, proxy and
 * credentials, and the options' timeouts, token bucket, retries, interceptors and metrics.
 *
 * <p>Each attempt first waits for a token (when a rate limit is set), then runs under the request
 * timeout through the filters, outermost first: user agent, credentials (with one retry after a
 * 401 when a fresh credential exists), the user's interceptors, metrics, then the network.
 * Retries wrap the whole attempt, so every attempt takes a token and is counted.
 *
 * <p>The parts live in files of their own: {@link TlsContextFactory} (TLS), {@link Authenticator#filter()}
 * (credentials), {@link RetryPolicy} (what is retried, when), {@link StatusTranslator} (errors into
 * the client's exceptions) and {@link MetricsFilter} (request metrics).
 */
final class HttpTransport implements AutoCloseable {

    /**
     * Where WebClient looks for the parent of its observation in the subscriber's context:
     * {@code ObservationThreadLocalAccessor.KEY}, written out because that class needs the
     * context-propagation library, which this client does not require.
     */
    private static final String PARENT_OBSERVATION = "micrometer.observation";

    private final ClientConfig config;
    private final ClientOptions options;
    private final ConnectionProvider connections;
    /**
     * Event loops of this client's own: Reactor Netty's global ones are disposed by whoever closes
     * them first (a Spring context's ReactorResourceFactory does on shutdown), which would cut this
     * client off while it still releases its lease or flushes events.
     */
    private final LoopResources loops;
    private final WebClient webClient;
    private final @Nullable TokenBucket bucket;
    private final StatusTranslator errors;
    private final RetryPolicy retryPolicy;
    /** The HTTP client under the WebClient (TLS, proxy, timeouts), for WebSockets, which WebClient does not open. */
    private final HttpClient http;
    private final Authenticator authenticator;

    HttpTransport(ClientConfig config, ClientOptions options) {
        this.config = config;
        this.options = options;
        RotatingKeyManager keys = new RotatingKeyManager(config.tls().clientCertificate(), options.timeSource());
        long idleMillis = options.idleConnectionTimeout().toMillis();
        this.connections = ConnectionProvider.builder("operator-starter")
                .maxConnections(512)
                .pendingAcquireMaxCount(-1)
                // A custom eviction predicate replaces maxIdleTime, so it checks idleness itself: a
                // connection idle past the server's idle timeout is closed there, and two such
                // connections in a row fail a request with "Error while acquiring".
                .evictionPredicate((connection, metadata) -> metadata.idleTime() >= idleMillis
                        // a connection opened before the client certificate rotated keeps the old identity
                        || keys.openedBeforeRotation(Duration.ofMillis(metadata.lifeTime())))
                .evictInBackground(options.idleConnectionTimeout())
                .build();
        this.loops = LoopResources.create("operator-starter-http",
                Math.max(2, Runtime.getRuntime().availableProcessors()), true);
        HttpClient http = HttpClient.create(connections).runOn(loops)
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, (int) Math.min(Integer.MAX_VALUE,
                        options.connectTimeout().toMillis()))
                // heap buffers unpooled: the pool would keep the chunks a list grew it to (see the class)
                .option(ChannelOption.ALLOCATOR, UnpooledHeapAllocator.INSTANCE)
                .compress(true);
        if ("https".equals(config.server().getScheme())) {
            http = TlsContextFactory.secure(http, config.tls(), config.source(), keys, options.connectTimeout());
        }
        URI proxy = config.proxy();
        if (proxy != null) {
            ProxyProvider.Proxy type = proxy.getScheme().toLowerCase(Locale.ROOT).startsWith("socks")
                    ? ProxyProvider.Proxy.SOCKS5 : ProxyProvider.Proxy.HTTP;
            int port = proxy.getPort() > 0 ? proxy.getPort()
                    : type == ProxyProvider.Proxy.SOCKS5 ? 1080 : "https".equalsIgnoreCase(proxy.getScheme()) ? 443 : 80;
            String userInfo = proxy.getUserInfo();
            http = http.proxy(spec -> {
                var address = spec.type(type).host(proxy.getHost()).port(port);
                if (userInfo != null && !userInfo.isEmpty()) {
                    int colon = userInfo.indexOf(':');
                    String password = colon < 0 ? "" : userInfo.substring(colon + 1);
                    address.username(colon < 0 ? userInfo : userInfo.substring(0, colon)).password(user -> password);
                }
            });
        }
        this.http = http;
        Authenticator authenticator = Authenticator.of(config, options, keys);
        this.authenticator = authenticator;
        RateLimit limit = options.rateLimit();
        this.bucket = limit == null ? null : new TokenBucket(limit.qps(), limit.burst(), options.timeSource());
        WebClient.Builder builder = WebClient.builder()
                .clientConnector(new ReactorClientHttpConnector(http))
                .exchangeStrategies(ExchangeStrategies.builder().codecs(codecs -> {
                    codecs.defaultCodecs().jacksonJsonDecoder(new JacksonJsonDecoder(Json.MAPPER));
                    codecs.defaultCodecs().jacksonJsonEncoder(new JacksonJsonEncoder(Json.MAPPER));
                    // What goes through the codecs (an error's Status, an interceptor's read) is one
                    // response; lists and watches are read by Request, under their own limits.
                    codecs.defaultCodecs().maxInMemorySize(options.maxResponseBytes());
                }).build())
                .defaultHeader(HttpHeaders.USER_AGENT, options.userAgent())
                .filter(authenticator.filter());
        options.interceptors().forEach(builder::filter);
        builder.filter(MetricsFilter.of(options.metrics(), config.server(), options.timeSource()));
        if (!options.observationRegistry().isNoop()) {
            builder.observationRegistry(options.observationRegistry())
                    .observationConvention(new KubernetesRequestObservationConvention());
        }
        this.webClient = builder.build();
        this.errors = new StatusTranslator(config, options);
        this.retryPolicy = new RetryPolicy(options);
    }

    ClientConfig config() {
        return config;
    }

    ClientOptions options() {
        return options;
    }

    /** Whether requests are observed (and so need their {@link Route}). */
    boolean observed() {
        return !options.observationRegistry().isNoop();
    }

    /**
     * Makes the observation current on the calling thread (a reconcile's) the parent of the
     * request's observations: WebClient looks for it in the subscriber's context, which a
     * blocking caller's thread-local scope does not reach by itself.
     */
    private <T> Mono<T> underCurrentObservation(Mono<T> request) {
        Context parent = parentObservation();
        return parent == null ? request : request.contextWrite(parent);
    }

    private <T> Flux<T> underCurrentObservation(Flux<T> request) {
        Context parent = parentObservation();
        return parent == null ? request : request.contextWrite(parent);
    }

    /** The subscriber context that names the calling thread's current observation, or null for none. */
    private @Nullable Context parentObservation() {
        Observation parent = observed() ? options.observationRegistry().getCurrentObservation() : null;
        return parent == null ? null : Context.of(PARENT_OBSERVATION, parent);
    }

    /** One request whose successful response is handled by {@code body}; retried per the options. */
    <T> Mono<T> execute(RequestSpec spec, Function<ClientResponse, Mono<T>> body) {
        if (spec.deadline() != null) {
            return underCurrentObservation(Mono.defer(() -> prepare(spec).exchangeToMono(response -> response.statusCode()
                            .is2xxSuccessful() ? body.apply(response) : StatusTranslator.error(response, spec)))
                    .timeout(spec.deadline())
                    .onErrorMap(e -> errors.translate(e, spec)));
        }
        Mono<T> attempt = Mono.defer(() -> prepare(spec).exchangeToMono(response -> response.statusCode()
                        .is2xxSuccessful() ? body.apply(response) : StatusTranslator.error(response, spec)))
                .timeout(options.requestTimeout()); // one attempt, not counting the wait for a token
        return underCurrentObservation(throttle().then(attempt)
                .onErrorMap(e -> errors.translate(e, spec))
                .retryWhen(retryPolicy.retries(spec, false)));
    }

    /** A streaming request (a watch): no request timeout, and retries only before the first byte. */
    <T> Flux<T> stream(RequestSpec spec, Function<ClientResponse, Flux<T>> body) {
        Flux<T> attempt = Flux.defer(() -> prepare(spec).exchangeToFlux(response -> response.statusCode()
                .is2xxSuccessful() ? body.apply(response) : StatusTranslator.<T>error(response, spec).flux()));
        return underCurrentObservation(throttle().thenMany(attempt)
                .onErrorMap(e -> errors.translate(e, spec))
                .retryWhen(retryPolicy.retries(spec, true)));
    }

    /**
     * Waits for a token when a rate limit is set. A wait that is cancelled (the caller gave up)
     * gives its token back, so abandoned requests do not slow down the ones that follow.
     */
    private Mono<Void> throttle() {
        if (bucket == null) {
            return Mono.empty();
        }
        return Mono.defer(() -> {
            Duration wait = bucket.reserve();
            return wait.isZero() ? Mono.empty() : Mono.delay(wait).doOnCancel(bucket::refund).then();
        });
    }

    /**
     * Opens a WebSocket offering {@code subprotocols}: waits for a token like any request, then
     * connects with the client's TLS, proxy and credentials within the request timeout (or the
     * request's deadline). Each upgrade is reported to the request metrics (code 101 when open).
     * After a 401 it is tried once more when the credentials have a fresh header (a rotated token
     * file, an exec plugin run again), as requests are; not retried otherwise, since a command
     * the server started must not run twice. Refusals are the usual {@link ApiException}s.
     */
    Mono<WebSocket> webSocket(RequestSpec spec, List<String> subprotocols) {
        Duration timeout = spec.deadline() != null ? spec.deadline() : options.requestTimeout();
        return throttle().then(authenticator.authorization())
                .flatMap(header -> upgrade(spec, subprotocols, header)
                        .onErrorResume(e -> e instanceof ApiException.Unauthorized,
                                unauthorized -> authenticator.refreshAfterUnauthorized(header)
                                        .flatMap(refreshed -> refreshed
                                                ? authenticator.authorization()
                                                        .flatMap(fresh -> upgrade(spec, subprotocols, fresh))
                                                : Mono.error(unauthorized))))
                .timeout(timeout)
                .onErrorMap(e -> errors.translate(e, spec));
    }

    private Mono<WebSocket> upgrade(RequestSpec spec, List<String> subprotocols, Optional<String> header) {
        return MetricsFilter.webSocket(WebSocketUpgrade.open(http, spec, subprotocols, header, options),
                options.metrics(), config.server(), options.timeSource());
    }

    private WebClient.RequestHeadersSpec<?> prepare(RequestSpec spec) {
        WebClient.RequestBodySpec request = webClient.method(spec.method()).uri(spec.uri())
                .header(HttpHeaders.ACCEPT, spec.accept());
        if (spec.route() != null) {
            request.attribute(KubernetesRequestObservationConvention.ROUTE, spec.route());
        }
        if (spec.body() != null) {
            request.header(HttpHeaders.CONTENT_TYPE, spec.contentType());
            return request.bodyValue(spec.body());
        }
        return request;
    }

    @Override
    public void close() {
        connections.dispose();
        loops.dispose();
    }

    /**
     * One HTTP request as the transport sees it.
     *
     * @param deadline when set, the request is one attempt that must finish within it, is never
     *     retried and does not wait for a rate-limiter token (see {@link Request#deadline})
     */
    record RequestSpec(HttpMethod method, URI uri, String accept, @Nullable Object body, String contentType,
            @Nullable Duration deadline, @Nullable Route route) {

        String describe() {
            return method.name() + " " + new RedactedUri(uri);
        }
    }

    /**
     * What a request does in Kubernetes terms, for its observation; made only when requests are
     * observed.
     *
     * @param uriTemplate the path with {@code {namespace}} and {@code {name}} in place of the
     *     namespace and name, without the server's base path
     * @param resource resource[.group][/subresource]; empty for a path of its own
     * @param verb Kubernetes' verb (get, list, watch, create, update, patch, delete,
     *     deletecollection), or the method in lower case for a path of its own
     */
    record Route(String uriTemplate, String resource, String verb) {
    }
}
