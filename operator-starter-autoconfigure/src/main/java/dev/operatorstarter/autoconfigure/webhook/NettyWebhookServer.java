package dev.operatorstarter.autoconfigure.webhook;

import dev.operatorstarter.time.TimeSource;
import dev.operatorstarter.webhook.WebhookEndpoint;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import io.netty.channel.group.DefaultChannelGroup;
import io.netty.util.concurrent.GlobalEventExecutor;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;
import reactor.core.scheduler.Scheduler;
import reactor.core.scheduler.Schedulers;
import reactor.netty.DisposableServer;
import reactor.netty.http.server.HttpServer;
import reactor.netty.tcp.SslProvider;

/**
 * {@link WebhookServer} on a Reactor Netty {@link HttpServer} of its own: HTTP/1.1 over TLS (as
 * controller-runtime serves by default), the certificate from a {@link CertificateSource}
 * presented through a {@link RotatingServerKeyManager}, requests answered by a
 * {@link WebhookRequestHandler}. One background thread loads the certificate again every
 * {@code reload-interval} (files re-read; a generated certificate renewed once a third of its
 * validity is left) and runs the caBundle injection: at start, every {@code retry-period} while
 * something is pending, every {@code check-period} once done, and at once after the CA changed.
 *
 * <p><b>Rotation.</b> A certificate with the CA served now is served at once. One with another
 * CA is {@linkplain RotatingServerKeyManager#stage staged}: the injection writes a bundle with the
 * new CA first and the current one kept ({@link CaBundle}), and the server goes on serving the
 * current certificate until a pass finds every named object already carrying the new CA (a pass
 * that had to write waits for the next, {@code retry-period} later, so the API server has seen
 * the write); then it serves the new one. Only if the current certificate expires first is the
 * new one served anyway, which {@link Status#certificateRotation()} says. Without injection (none
 * named, or supplied files without a CA) a new certificate is served at once.
 *
 * <p><b>Limits.</b> Each connection is closed when its request's headers take longer than
 * {@code header-read-timeout} ({@link HeaderReadTimeout}), when it waits longer than
 * {@code idle-timeout} for its next request, or at once when {@code max-connections} are open
 * ({@link ConnectionLimit}); a body slower than {@code body-read-timeout} is answered 408, headers
 * over {@code max-header-size} 431, and requests beyond {@code max-concurrent-requests} 429
 * ({@link WebhookRequestHandler}). TLS as {@link WebhookTls} sets it up.
 *
 * <p>{@link #stop()} stops accepting connections, lets requests in flight finish (up to
 * {@code shutdown-timeout}) and closes every open connection, keep-alive ones included.
 *
 * <p>{@link #start()} fails (and with it the application's start-up) when the certificate cannot
 * be read or made, or the port cannot be bound; the message says which. Not pauseable: a paused
 * test context keeps serving, since a restart on port 0 would move the port the webhook
 * configurations point at.
 */
final class NettyWebhookServer implements WebhookServer, SmartLifecycle {

    /**
     * After the application's web server ({@code DEFAULT_PHASE - 2048}), before the informers
     * ({@code DEFAULT_PHASE - 512}): a conversion webhook must answer before the operator reads a
     * converted kind. Stops after them.
     */
    static final int PHASE = SmartLifecycle.DEFAULT_PHASE - 1536;
    private static final Logger log = LoggerFactory.getLogger(NettyWebhookServer.class);
    private static final String NOT_YET = "the caBundle has not been injected yet";

    private final WebhookProperties properties;
    private final Map<String, WebhookEndpoint> endpoints;
    private final Supplier<CertificateSource> certificates;
    private final @Nullable CaBundleInjector injector;
    private volatile @Nullable Scheduler workers;
    private final WebhookMetrics metrics;
    private final TimeSource time;

    private final Object lock = new Object();
    private volatile @Nullable CertificateSource source;
    private volatile @Nullable RotatingServerKeyManager keys;
    private volatile @Nullable DisposableServer server;
    private @Nullable ScheduledExecutorService background;
    private volatile @Nullable String certificateProblem;
    private volatile List<String> pending = List.of();
    /** The CA last injected everywhere: once the current CA is, a later check that fails does not unready the server. */
    private volatile @Nullable String injectedCa;
    /** Why a new certificate is served before its CA was injected everywhere; null once it is. */
    private volatile @Nullable String rotationProblem;
    /** The next injection pass, written under {@link #lock}; cancelled when a pass is run at once (one chain only). */
    private volatile @Nullable ScheduledFuture<?> nextPass;

    /**
     * @param certificates makes the certificate source on the first start (it may need BouncyCastle)
     * @param injector the caBundle injection, or null when no object is named
     */
    NettyWebhookServer(WebhookProperties properties, Map<String, WebhookEndpoint> endpoints,
            Supplier<CertificateSource> certificates, @Nullable CaBundleInjector injector,
            WebhookMetrics metrics, TimeSource time) {
        this.properties = Objects.requireNonNull(properties, "properties");
        this.endpoints = Map.copyOf(endpoints);
        this.certificates = Objects.requireNonNull(certificates, "certificates");
        this.injector = injector;
        this.metrics = Objects.requireNonNull(metrics, "metrics");
        this.time = Objects.requireNonNull(time, "time");
    }

    @Override
    public void start() {
        synchronized (lock) {
            if (server != null) {
                return;
            }
            if (source == null) {
                source = certificates.get();
            }
            ServingKey key = source.load();
            if (keys == null) {
                keys = new RotatingServerKeyManager(key);
            } else {
                keys.use(key);
            }
            RotatingServerKeyManager serving = keys;
            WebhookTls tls = WebhookTls.of(properties); // before anything is started: a bad setting fails here
            // Handlers block (they may call the API server): a pool of their own, so that they can
            // neither starve Reactor's shared one (the client's token reads run there) nor each other's callers.
            Scheduler handlers = Schedulers.newBoundedElastic(10 * Runtime.getRuntime().availableProcessors(), 1000,
                    "webhook-handlers", 60, true);
            workers = handlers;
            WebhookRequestHandler handler = new WebhookRequestHandler(endpoints, properties.maxRequestSize().toBytes(),
                    properties.maxConcurrentRequests(), properties.bodyReadTimeout(), handlers, metrics, time);
            ConnectionLimit connections = new ConnectionLimit(properties.maxConnections());
            Duration headerReadTimeout = properties.headerReadTimeout();
            try {
                // the group lets a stop close open keep-alive connections too (after their request in flight):
                // without it, the API server would go on calling a stopped server on its old connections
                server = HttpServer.create().host(properties.address()).port(properties.port())
                        .channelGroup(new DefaultChannelGroup(GlobalEventExecutor.INSTANCE))
                        .secure(spec -> spec.sslContext((SslProvider.GenericSslContextSpec<?>) tls.spec(serving)))
                        .idleTimeout(properties.idleTimeout())
                        .httpRequestDecoder(decoder -> decoder.maxHeaderSize((int) properties.maxHeaderSize().toBytes()))
                        .doOnChannelInit((observer, channel, remote) -> {
                            if (connections.admit(channel)) {
                                HeaderReadTimeout.install(channel, headerReadTimeout);
                            }
                        })
                        .handle(handler).bindNow(Duration.ofSeconds(10));
            } catch (RuntimeException e) {
                workers = null;
                handlers.dispose();
                throw new InvalidWebhookException("the webhook server cannot listen on " + properties.address() + ":"
                        + properties.port() + " (operator.webhook.address, operator.webhook.port): " + e.getMessage(), e);
            }
            endpoints.keySet().forEach(metrics::served);
            background = Executors.newSingleThreadScheduledExecutor(runnable -> {
                Thread thread = new Thread(runnable, "webhook-certificates");
                thread.setDaemon(true);
                return thread;
            });
            long interval = properties.certificate().reloadInterval().toMillis();
            background.scheduleWithFixedDelay(() -> guarded("reload the webhook certificate", this::reload), interval,
                    interval, TimeUnit.MILLISECONDS);
            if (injector != null) {
                pending = List.of(NOT_YET);
                nextPass = background.schedule(this::injectAndReschedule, 0, TimeUnit.MILLISECONDS);
            }
            if (endpoints.isEmpty()) {
                log.warn("The webhook server listens on port {} but serves nothing: no @AdmissionWebhook or "
                        + "@ConversionWebhook bean was found", port());
            } else {
                log.info("Webhook server listening on https://{}:{} ({}) for {}; certificate {}, valid until {}",
                        properties.address(), port(), tls.describe(), new TreeSet<>(endpoints.keySet()),
                        source.describe(), key.notAfter());
            }
        }
    }

    @Override
    public void stop() {
        DisposableServer stopping;
        Scheduler handlers;
        synchronized (lock) {
            stopping = server;
            server = null;
            handlers = workers;
            workers = null;
            if (background != null) {
                background.shutdownNow();
                background = null;
            }
        }
        if (stopping != null) {
            try {
                stopping.disposeNow(properties.shutdownTimeout().isZero() ? Duration.ofMillis(1)
                        : properties.shutdownTimeout());
            } catch (IllegalStateException e) {
                log.warn("The webhook server did not stop within {}: {}", properties.shutdownTimeout(), e.getMessage());
            }
        }
        if (handlers != null) {
            handlers.dispose(); // after the server: the requests in flight have had their answers
        }
    }

    @Override
    public boolean isRunning() {
        return server != null;
    }

    @Override
    public int getPhase() {
        return PHASE;
    }

    @Override
    public boolean isPauseable() {
        return false;
    }

    @Override
    public int port() {
        DisposableServer current = server;
        return current == null ? -1 : current.port();
    }

    @Override
    public Set<String> paths() {
        return new TreeSet<>(endpoints.keySet());
    }

    @Override
    public @Nullable String caCertificatePem() {
        RotatingServerKeyManager current = keys;
        return current == null ? null : current.current().caPem();
    }

    @Override
    public Status status() {
        RotatingServerKeyManager current = keys;
        CertificateSource from = source;
        // Readiness waits for the first injection of the current CA only: once the API server trusts
        // it, a periodic check that fails (a slow API server) must not unready every replica at once.
        boolean injected = current != null && Objects.equals(injectedCa, current.current().caPem());
        ServingKey staged = current == null ? null : current.staged();
        String rotation = staged == null ? rotationProblem : "a new certificate, valid until " + staged.notAfter()
                + ", is served once its CA is in every caBundle; until then the one valid until "
                + current.current().notAfter() + (pending.isEmpty() ? "" : " (" + String.join("; ", pending) + ")");
        return new Status(isRunning(), port(), List.copyOf(paths()), from == null ? "not loaded yet" : from.describe(),
                current == null ? null : current.current().notAfter(), certificateProblem, rotation,
                injected ? List.of() : pending);
    }

    /**
     * Loads the certificate again (files re-read, a generated one renewed when due) and offers it;
     * a failure keeps the certificate served and is shown as {@code certificateProblem}.
     */
    private void reload() {
        RotatingServerKeyManager serving = keys;
        CertificateSource from = source;
        if (serving == null || from == null) {
            return;
        }
        ServingKey key;
        try {
            key = from.load();
        } catch (RuntimeException e) {
            String problem = e.getMessage() + "; still serving the certificate valid until "
                    + serving.current().notAfter();
            if (!problem.equals(certificateProblem)) {
                log.warn("Cannot reload the webhook certificate: {}", problem);
            }
            certificateProblem = problem;
            return;
        }
        if (certificateProblem != null) {
            log.info("The webhook certificate ({}) can be loaded again", from.describe());
            certificateProblem = null;
        }
        offer(serving, key, from);
    }

    /**
     * A certificate just loaded: served at once when its CA is the one served or nobody injects;
     * otherwise staged, and an injection pass run at once to put its CA everywhere.
     */
    private void offer(RotatingServerKeyManager serving, ServingKey key, CertificateSource from) {
        ServingKey current = serving.current();
        ServingKey staged = serving.staged();
        if (key.sameAs(current)) {
            if (staged != null) {
                serving.stage(null);
                log.info("The webhook certificate from {} is the one served again; the new one valid until {} is "
                        + "not served", from.describe(), staged.notAfter());
            }
            return;
        }
        if (key.sameAs(staged)) {
            return;
        }
        if (injector == null || key.caPem() == null || Objects.equals(key.caPem(), current.caPem())) {
            serving.use(key);
            log.info("The webhook server serves a new certificate from {}, valid until {}", from.describe(),
                    key.notAfter());
            return;
        }
        serving.stage(key);
        log.info("The webhook certificate from {} has a new CA: the new certificate, valid until {}, is served once "
                + "that CA is in the caBundle of {}; until then the current one, valid until {}", from.describe(),
                key.notAfter(), CaBundleInjector.describe(properties.caInjection()), current.notAfter());
        ScheduledFuture<?> next = nextPass;
        if (next != null) {
            next.cancel(false); // this thread runs the passes: the one scheduled has not started
        }
        injectAndReschedule();
    }

    /** Runs a background task, logging what it throws: a scheduled task that throws is never run again. */
    private static void guarded(String what, Runnable task) {
        try {
            task.run();
        } catch (Throwable e) {
            log.error("Could not {}; will try again", what, e);
        }
    }

    /** One injection pass, then the next one scheduled (whatever the pass threw): soon while something is pending. */
    private void injectAndReschedule() {
        boolean settled = false;
        try {
            settled = injectOnce();
        } catch (Throwable e) {
            log.error("The caBundle injection failed; will try again", e);
        }
        Duration next = settled ? properties.caInjection().checkPeriod() : properties.caInjection().retryPeriod();
        // under the lock: the first pass may run before start() has stored its future, which must not
        // then overwrite this one (a pass run at once cancels the stored one: one chain of passes only)
        synchronized (lock) {
            ScheduledExecutorService scheduler = background;
            if (scheduler != null && !scheduler.isShutdown()) {
                try {
                    nextPass = scheduler.schedule(this::injectAndReschedule, next.toMillis(), TimeUnit.MILLISECONDS);
                } catch (RejectedExecutionException e) {
                    // stopping
                }
            }
        }
    }

    /**
     * One injection pass (on the background thread): the CA of the staged certificate, else of
     * the served one; a staged certificate is promoted when the pass found its CA everywhere, or
     * when the served one has expired. Whether all is settled (nothing pending, written or staged).
     */
    private boolean injectOnce() {
        CaBundleInjector injection = injector;
        RotatingServerKeyManager serving = keys;
        if (injection == null || serving == null) {
            return true;
        }
        ServingKey current = serving.current();
        ServingKey staged = serving.staged();
        String ca = (staged != null ? staged : current).caPem();
        Instant now = time.now();
        List<String> missing;
        boolean settled = false;
        if (ca == null) {
            missing = List.of("no CA to inject: set operator.webhook.certificate.ca-file with the supplied certificate");
        } else {
            // while rotating, the CA served now stays in the bundle as well, so both certificates are trusted
            String bundle = staged != null && current.caPem() != null && now.isBefore(current.notAfter())
                    ? ca + current.caPem() : ca;
            CaBundleInjector.Outcome outcome;
            try {
                outcome = injection.inject(bundle);
            } catch (RuntimeException e) {
                log.debug("The caBundle injection failed", e);
                outcome = new CaBundleInjector.Outcome(List.of("the caBundle injection failed: " + e), List.of());
            }
            missing = outcome.pending();
            settled = outcome.settled();
            if (missing.isEmpty() && (staged == null || settled)) {
                injectedCa = ca;
                rotationProblem = null;
                if (staged != null) {
                    serving.promote();
                    log.info("The webhook server serves its new certificate, valid until {}: its CA is in every "
                            + "caBundle", staged.notAfter());
                }
            }
        }
        if (serving.staged() != null && !now.isBefore(current.notAfter())) {
            ServingKey successor = Objects.requireNonNull(serving.promote());
            rotationProblem = "the certificate valid until " + current.notAfter() + " expired before the CA of its "
                    + "successor was in every caBundle: serving the new one, valid until " + successor.notAfter()
                    + ", which the API server may not trust until the injection is done";
            log.warn("Serving the new webhook certificate before its CA is in every caBundle: {}", rotationProblem);
        }
        if (!missing.equals(pending)) {
            if (missing.isEmpty()) {
                log.info("Injected the webhook CA into {}", CaBundleInjector.describe(properties.caInjection()));
            } else {
                log.warn("The webhook CA is not injected everywhere yet: {}", String.join("; ", missing));
            }
        }
        pending = missing;
        return settled && serving.staged() == null;
    }
}
