package dev.operatorstarter.autoconfigure.webhook;

import dev.operatorstarter.time.TimeSource;
import dev.operatorstarter.webhook.WebhookEndpoint;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
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
import reactor.netty.http.Http11SslContextSpec;
import reactor.netty.http.server.HttpServer;
import reactor.netty.tcp.SslProvider;

/**
 * {@link WebhookServer} on a Reactor Netty {@link HttpServer} of its own: HTTP/1.1 over TLS (as
 * controller-runtime serves by default), the certificate from a {@link CertificateSource}
 * presented through a {@link RotatingServerKeyManager}, requests answered by a
 * {@link WebhookRequestHandler}. One background thread re-reads certificate files every
 * {@code reload-interval} and runs the caBundle injection: at start, every {@code retry-period}
 * while something is pending, every {@code check-period} once done, and at once after the CA
 * changed.
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
            // Handlers block (they may call the API server): a pool of their own, so that they can
            // neither starve Reactor's shared one (the client's token reads run there) nor each other's callers.
            Scheduler handlers = Schedulers.newBoundedElastic(10 * Runtime.getRuntime().availableProcessors(), 1000,
                    "webhook-handlers", 60, true);
            workers = handlers;
            WebhookRequestHandler handler = new WebhookRequestHandler(endpoints, properties.maxRequestSize().toBytes(),
                    handlers, metrics, time);
            try {
                // the group lets a stop close open keep-alive connections too (after their request in flight):
                // without it, the API server would go on calling a stopped server on its old connections
                server = HttpServer.create().host(properties.address()).port(properties.port())
                        .channelGroup(new DefaultChannelGroup(GlobalEventExecutor.INSTANCE))
                        .secure(spec -> spec.sslContext(
                                (SslProvider.GenericSslContextSpec<?>) Http11SslContextSpec.forServer(serving)))
                        .handle(handler).bindNow(Duration.ofSeconds(10));
            } catch (RuntimeException e) {
                throw new InvalidWebhookException("the webhook server cannot listen on " + properties.address() + ":"
                        + properties.port() + " (operator.webhook.address, operator.webhook.port): " + e.getMessage(), e);
            }
            endpoints.keySet().forEach(metrics::served);
            background = Executors.newSingleThreadScheduledExecutor(runnable -> {
                Thread thread = new Thread(runnable, "webhook-certificates");
                thread.setDaemon(true);
                return thread;
            });
            if (!properties.certificate().generated()) {
                long interval = properties.certificate().reloadInterval().toMillis();
                background.scheduleWithFixedDelay(() -> guarded("reload the webhook certificate", this::reload), interval,
                        interval, TimeUnit.MILLISECONDS);
            }
            if (injector != null) {
                pending = List.of(NOT_YET);
                background.execute(this::injectAndReschedule);
            }
            if (endpoints.isEmpty()) {
                log.warn("The webhook server listens on port {} but serves nothing: no @AdmissionWebhook or "
                        + "@ConversionWebhook bean was found", port());
            } else {
                log.info("Webhook server listening on https://{}:{} for {}; certificate {}, valid until {}",
                        properties.address(), port(), new TreeSet<>(endpoints.keySet()), source.describe(),
                        key.notAfter());
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
        return new Status(isRunning(), port(), List.copyOf(paths()), from == null ? "not loaded yet" : from.describe(),
                current == null ? null : current.current().notAfter(), certificateProblem, injected ? List.of() : pending);
    }

    /** Reads the certificate files again; serves them when they changed and belong together. */
    private void reload() {
        RotatingServerKeyManager serving = keys;
        CertificateSource from = source;
        if (serving == null || from == null) {
            return;
        }
        try {
            ServingKey key = from.load();
            if (certificateProblem != null) {
                log.info("The webhook certificate files are readable again");
                certificateProblem = null;
            }
            if (!key.sameAs(serving.current())) {
                boolean caChanged = !Objects.equals(key.caPem(), serving.current().caPem());
                serving.use(key);
                log.info("The webhook server serves a new certificate from {}, valid until {}", from.describe(),
                        key.notAfter());
                if (caChanged && injector != null) {
                    injectOnce();
                }
            }
        } catch (RuntimeException e) {
            String problem = e.getMessage() + "; still serving the certificate valid until "
                    + serving.current().notAfter();
            if (!problem.equals(certificateProblem)) {
                log.warn("Cannot reload the webhook certificate: {}", problem);
            }
            certificateProblem = problem;
        }
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
        List<String> now = List.of("the caBundle injection did not finish");
        try {
            now = injectOnce();
        } catch (Throwable e) {
            log.error("The caBundle injection failed; will try again", e);
        }
        ScheduledExecutorService scheduler = background;
        if (scheduler != null && !scheduler.isShutdown()) {
            Duration next = now.isEmpty() ? properties.caInjection().checkPeriod() : properties.caInjection().retryPeriod();
            try {
                scheduler.schedule(this::injectAndReschedule, next.toMillis(), TimeUnit.MILLISECONDS);
            } catch (java.util.concurrent.RejectedExecutionException e) {
                // stopping
            }
        }
    }

    /** One injection pass (on the background thread); returns what is pending. */
    private List<String> injectOnce() {
        CaBundleInjector injection = injector;
        RotatingServerKeyManager serving = keys;
        if (injection == null || serving == null) {
            return List.of();
        }
        String ca = serving.current().caPem();
        List<String> now;
        if (ca == null) {
            now = List.of("no CA to inject: set operator.webhook.certificate.ca-file with the supplied certificate");
        } else {
            try {
                now = injection.inject(ca).pending();
            } catch (RuntimeException e) {
                log.debug("The caBundle injection failed", e);
                now = List.of("the caBundle injection failed: " + e);
            }
        }
        if (now.isEmpty() && ca != null) {
            injectedCa = ca;
        }
        if (!now.equals(pending)) {
            if (now.isEmpty()) {
                log.info("Injected the webhook CA into {}", CaBundleInjector.describe(properties.caInjection()));
            } else {
                log.warn("The webhook CA is not injected everywhere yet: {}", String.join("; ", now));
            }
        }
        pending = now;
        return now;
    }
}
