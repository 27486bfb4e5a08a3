package dev.operatorstarter.client.rest;

import dev.operatorstarter.client.config.ClientConfig;
import dev.operatorstarter.client.config.ConfigException;
import dev.operatorstarter.client.config.RedactedUri;
import dev.operatorstarter.client.config.TlsSettings;
import dev.operatorstarter.internal.ByteSizes;
import dev.operatorstarter.internal.Json;
import dev.operatorstarter.internal.TokenBucket;
import dev.operatorstarter.time.TimeSource;
import io.fabric8.kubernetes.api.model.Status;
import io.fabric8.kubernetes.api.model.StatusBuilder;
import io.fabric8.kubernetes.api.model.StatusDetails;
import io.micrometer.observation.Observation;
import io.netty.channel.ChannelOption;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.util.InsecureTrustManagerFactory;
import io.netty.handler.ssl.util.TrustManagerFactoryWrapper;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;
import javax.net.ssl.SNIHostName;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509ExtendedTrustManager;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.core.codec.DecodingException;
import org.springframework.core.io.buffer.DataBufferLimitException;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.client.reactive.ReactorClientHttpConnector;
import org.springframework.http.codec.json.JacksonJsonDecoder;
import org.springframework.http.codec.json.JacksonJsonEncoder;
import org.springframework.web.reactive.function.client.ClientRequest;
import org.springframework.web.reactive.function.client.ClientResponse;
import org.springframework.web.reactive.function.client.ExchangeFilterFunction;
import org.springframework.web.reactive.function.client.ExchangeStrategies;
import org.springframework.web.reactive.function.client.WebClient;
import org.springframework.web.reactive.function.client.WebClientRequestException;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.netty.http.client.HttpClient;
import reactor.netty.http.client.PrematureCloseException;
import reactor.netty.resources.ConnectionProvider;
import reactor.netty.resources.LoopResources;
import reactor.netty.transport.ProxyProvider;
import reactor.util.context.Context;
import reactor.util.retry.Retry;
import tools.jackson.core.JacksonException;

/**
 * The HTTP layer: a {@link WebClient} on Reactor Netty with the configuration's TLS, proxy and
 * credentials, and the options' timeouts, token bucket, retries, interceptors and metrics.
 *
 * <p>Each attempt first waits for a token (when a rate limit is set), then runs under the request
 * timeout through the filters, outermost first: user agent, credentials (with one retry after a
 * 401 when a fresh credential exists), the user's interceptors, metrics, then the network.
 * Retries wrap the whole attempt, so every attempt takes a token and is counted.
 */
final class HttpTransport implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(HttpTransport.class);
    /**
     * Methods safe to send twice. PUT and DELETE are not here although HTTP calls them idempotent:
     * a replayed DELETE whose first attempt went through answers 404, a replayed update 409, so
     * the caller would see a failure for a write that succeeded (client-go retries only GET too).
     */
    private static final Set<HttpMethod> IDEMPOTENT = Set.of(HttpMethod.GET, HttpMethod.HEAD, HttpMethod.OPTIONS);

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
                .compress(true);
        if ("https".equals(config.server().getScheme())) {
            SslContext ssl = sslContext(config.tls(), config.source(), keys);
            // A resumed TLS session keeps the identity it was made with: after the client
            // certificate rotates, no old session may be resumed.
            keys.onRotation(() -> forgetSessions(ssl));
            String serverName = config.tls().serverName();
            boolean verifyHost = !config.tls().insecureSkipVerify();
            http = http.secure(spec -> {
                var builder = spec.sslContext(ssl).handshakeTimeout(options.connectTimeout());
                if (serverName != null) {
                    builder.serverNames(new SNIHostName(serverName));
                }
                builder.handlerConfigurator(handler -> {
                    SSLEngine engine = handler.engine();
                    SSLParameters parameters = engine.getSSLParameters();
                    // The JDK checks the name against the URL's host; with tls-server-name our
                    // trust manager checks that name instead (and only that name).
                    parameters.setEndpointIdentificationAlgorithm(verifyHost && serverName == null ? "HTTPS" : null);
                    if (serverName != null) {
                        parameters.setServerNames(java.util.List.of(new SNIHostName(serverName)));
                    }
                    engine.setSSLParameters(parameters);
                });
            });
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
        Authenticator authenticator = Authenticator.of(config, options, keys);
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
                .filter(credentials(authenticator));
        options.interceptors().forEach(builder::filter);
        builder.filter(metrics(options.metrics(), hostOf(config.server()), options.timeSource()));
        if (!options.observationRegistry().isNoop()) {
            builder.observationRegistry(options.observationRegistry())
                    .observationConvention(new KubernetesRequestObservationConvention());
        }
        this.webClient = builder.build();
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
                            .is2xxSuccessful() ? body.apply(response) : error(response, spec)))
                    .timeout(spec.deadline())
                    .onErrorMap(e -> translate(e, spec)));
        }
        Mono<T> attempt = Mono.defer(() -> prepare(spec).exchangeToMono(response -> response.statusCode()
                        .is2xxSuccessful() ? body.apply(response) : error(response, spec)))
                .timeout(options.requestTimeout()); // one attempt, not counting the wait for a token
        return underCurrentObservation(throttle().then(attempt)
                .onErrorMap(e -> translate(e, spec))
                .retryWhen(retries(spec, false)));
    }

    /** A streaming request (a watch): no request timeout, and retries only before the first byte. */
    <T> Flux<T> stream(RequestSpec spec, Function<ClientResponse, Flux<T>> body) {
        Flux<T> attempt = Flux.defer(() -> prepare(spec).exchangeToFlux(response -> response.statusCode()
                .is2xxSuccessful() ? body.apply(response) : HttpTransport.<T>error(response, spec).flux()));
        return underCurrentObservation(throttle().thenMany(attempt)
                .onErrorMap(e -> translate(e, spec))
                .retryWhen(retries(spec, true)));
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

    private static <T> Mono<T> error(ClientResponse response, RequestSpec spec) {
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

    private Throwable translate(Throwable error, RequestSpec spec) {
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

    private Retry retries(RequestSpec spec, boolean streaming) {
        return Retry.from(signals -> signals.concatMap(signal -> {
            Throwable failure = signal.failure();
            long attempt = signal.totalRetries();
            Optional<Duration> delay = attempt < options.maxRetries() ? retryDelay(failure, spec, attempt, streaming)
                    : Optional.empty();
            if (delay.isEmpty()) {
                return Mono.error(failure);
            }
            log.debug("Retrying {} in {} ms (attempt {} of {}) after: {}", spec.describe(), delay.get().toMillis(),
                    attempt + 1, options.maxRetries(), failure.getMessage());
            return Mono.delay(delay.get()).thenReturn(attempt);
        }));
    }

    /** How long to wait before retrying after {@code failure}, or empty if it must not be retried. */
    private Optional<Duration> retryDelay(Throwable failure, RequestSpec spec, long attempt, boolean streaming) {
        boolean idempotent = IDEMPOTENT.contains(spec.method());
        if (failure instanceof ApiException api) {
            // 429 means the server did not run the request, so any method may be retried.
            boolean retry = api.code() == 429 || (idempotent && (api.code() == 503 || api.code() == 504));
            if (!retry) {
                return Optional.empty();
            }
            Optional<Duration> asked = api.retryAfter();
            if (asked.isPresent()) {
                return Optional.of(min(asked.get(), options.maxRetryDelay()));
            }
            return Optional.of(backoff(attempt));
        }
        if (idempotent && !streaming && connectionReset(failure)) {
            return Optional.of(backoff(attempt));
        }
        // A watch that cannot connect is not retried here: its owner (the reflector) has its own
        // backoff, and a TLS or DNS error must surface at once, not after minutes of retries.
        return Optional.empty();
    }

    private static boolean connectionReset(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof PrematureCloseException) {
                return true;
            }
            if (cause instanceof IOException io && io.getMessage() != null
                    && io.getMessage().toLowerCase(Locale.ROOT).contains("connection reset")) {
                return true;
            }
            if (cause.getCause() == cause) {
                break;
            }
        }
        return false;
    }

    /** Exponential from retryBackoff, capped, with jitter in [d/2, d]. */
    private Duration backoff(long attempt) {
        long base = options.retryBackoff().toNanos();
        long cap = options.maxRetryDelay().toNanos();
        long delay = attempt >= 62 ? cap : Math.min(cap, base << Math.min(attempt, 30));
        long jittered = delay / 2 + ThreadLocalRandom.current().nextLong(delay / 2 + 1);
        return Duration.ofNanos(jittered);
    }

    private static Duration min(Duration a, Duration b) {
        return a.compareTo(b) <= 0 ? a : b;
    }

    private static ExchangeFilterFunction credentials(Authenticator authenticator) {
        return (request, next) -> authenticator.authorization().flatMap(header -> next.exchange(withAuthorization(request, header))
                .flatMap(response -> {
                    if (response.statusCode().value() != 401) {
                        return Mono.just(response);
                    }
                    // The 401's body is released on every path, so its pooled connection is not leaked.
                    return authenticator.refreshAfterUnauthorized(header)
                            .onErrorResume(e -> response.releaseBody().then(Mono.error(e)))
                            .doOnCancel(() -> response.releaseBody().subscribe())
                            .flatMap(refreshed -> !refreshed
                                    ? Mono.just(response)
                                    : response.releaseBody().then(authenticator.authorization())
                                            .flatMap(fresh -> next.exchange(withAuthorization(request, fresh))));
                }));
    }

    private static ClientRequest withAuthorization(ClientRequest request, Optional<String> header) {
        if (header.isEmpty()) {
            return request;
        }
        return ClientRequest.from(request).headers(headers -> headers.set(HttpHeaders.AUTHORIZATION, header.get()))
                .build();
    }

    private static ExchangeFilterFunction metrics(RequestMetrics metrics, String host, TimeSource time) {
        if (metrics == RequestMetrics.NONE) {
            return (request, next) -> next.exchange(request);
        }
        return (request, next) -> Mono.defer(() -> {
            long started = time.nanoTime();
            java.util.concurrent.atomic.AtomicBoolean recorded = new java.util.concurrent.atomic.AtomicBoolean();
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

    private static String hostOf(URI server) {
        return server.getPort() > 0 ? server.getHost() + ":" + server.getPort() : server.getHost();
    }

    private static SslContext sslContext(TlsSettings tls, String source, RotatingKeyManager keys) {
        try {
            SslContextBuilder builder = SslContextBuilder.forClient();
            if (tls.insecureSkipVerify()) {
                log.warn("TLS verification of the API server is off (insecure-skip-tls-verify in {})", source);
                builder.trustManager(InsecureTrustManagerFactory.INSTANCE);
            } else if (!tls.certificateAuthorities().isEmpty() || tls.serverName() != null) {
                TrustManagerFactory factory = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
                if (tls.certificateAuthorities().isEmpty()) {
                    factory.init((KeyStore) null); // the JVM's trust store
                } else {
                    KeyStore trust = KeyStore.getInstance(KeyStore.getDefaultType());
                    trust.load(null, null);
                    int index = 0;
                    for (X509Certificate ca : tls.certificateAuthorities()) {
                        trust.setCertificateEntry("ca-" + index++, ca);
                    }
                    factory.init(trust);
                }
                if (tls.serverName() == null) {
                    builder.trustManager(factory);
                } else {
                    X509ExtendedTrustManager chain = java.util.Arrays.stream(factory.getTrustManagers())
                            .filter(X509ExtendedTrustManager.class::isInstance).map(X509ExtendedTrustManager.class::cast)
                            .findFirst().orElseThrow(() -> new ConfigException("no X.509 trust manager for " + source));
                    builder.trustManager(new TrustManagerFactoryWrapper(new ServerNameTrustManager(chain,
                            tls.serverName())));
                }
            }
            // The kubeconfig's certificate, or the one an exec plugin supplies (and rotates) later.
            builder.keyManager(keys);
            return builder.build();
        } catch (GeneralSecurityException | IOException e) {
            throw new ConfigException("cannot set up TLS for " + source + ": " + e.getMessage(), e);
        }
    }

    private static void forgetSessions(SslContext ssl) {
        javax.net.ssl.SSLSessionContext sessions = ssl.sessionContext();
        if (sessions == null) {
            return;
        }
        for (java.util.Enumeration<byte[]> ids = sessions.getIds(); ids.hasMoreElements(); ) {
            javax.net.ssl.SSLSession session = sessions.getSession(ids.nextElement());
            if (session != null) {
                session.invalidate();
            }
        }
    }

    @Override
    public void close() {
        connections.dispose();
        loops.dispose();
    }

    /** One HTTP request as the transport sees it. */
    /**
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
