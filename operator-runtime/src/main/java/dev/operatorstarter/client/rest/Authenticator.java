package dev.operatorstarter.client.rest;

import dev.operatorstarter.client.config.ClientConfig;
import dev.operatorstarter.client.config.ConfigException;
import dev.operatorstarter.client.config.Credentials;
import dev.operatorstarter.time.TimeSource;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.security.cert.CertificateEncodingException;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.Base64;
import java.util.Optional;
import org.jspecify.annotations.Nullable;
import org.springframework.http.HttpHeaders;
import org.springframework.web.reactive.function.client.ClientRequest;
import org.springframework.web.reactive.function.client.ExchangeFilterFunction;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

/**
 * Produces the {@code Authorization} header for a request and, after a 401, says whether a fresh
 * credential is worth one more try (a rotated token file, an exec plugin's new token).
 * Work that may block (reading a file, running a plugin) happens on Reactor's bounded-elastic
 * scheduler, never on an I/O thread.
 */
abstract sealed class Authenticator {

    private static final org.slf4j.Logger log = org.slf4j.LoggerFactory.getLogger(Authenticator.class);

    /** The header value, or empty when the request goes without one. */
    abstract Mono<Optional<String>> authorization();

    /** After a 401 answered a request sent with {@code used}: {@code true} if a different header is now available. */
    Mono<Boolean> refreshAfterUnauthorized(Optional<String> used) {
        return Mono.just(false);
    }

    /**
     * This authenticator as a WebClient filter: sets the header on every request and, after a 401,
     * sends the request once more when a fresh credential exists. The 401's body is released on
     * every path, so its pooled connection is not leaked.
     */
    final ExchangeFilterFunction filter() {
        return (request, next) -> authorization().flatMap(header -> next.exchange(withAuthorization(request, header))
                .flatMap(response -> {
                    if (response.statusCode().value() != 401) {
                        return Mono.just(response);
                    }
                    return refreshAfterUnauthorized(header)
                            .onErrorResume(e -> response.releaseBody().then(Mono.error(e)))
                            .doOnCancel(() -> response.releaseBody().subscribe())
                            .flatMap(refreshed -> !refreshed
                                    ? Mono.just(response)
                                    : response.releaseBody().then(authorization())
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

    static Authenticator of(ClientConfig config, ClientOptions options, RotatingKeyManager keys) {
        Credentials credentials = config.credentials();
        if (credentials instanceof Credentials.BearerToken token) {
            return new Fixed("Bearer " + token.token());
        }
        if (credentials instanceof Credentials.Basic basic) {
            return new Fixed("Basic " + Base64.getEncoder().encodeToString(
                    (basic.username() + ":" + basic.password()).getBytes(StandardCharsets.UTF_8)));
        }
        if (credentials instanceof Credentials.TokenFile file) {
            return new TokenFile(file, options.tokenFileRefresh(), options.timeSource(), config.source());
        }
        if (credentials instanceof Credentials.Exec exec) {
            return new Exec(new ExecCredentialPlugin(exec, config.source(), options.timeSource(), clusterInfo(config),
                    ExecCredentialPlugin.DEFAULT_TIMEOUT), keys);
        }
        return new Fixed(null);
    }

    private static tools.jackson.databind.node.ObjectNode clusterInfo(ClientConfig config) {
        byte[] caPem = null;
        if (!config.tls().certificateAuthorities().isEmpty()) {
            StringBuilder pem = new StringBuilder();
            for (X509Certificate certificate : config.tls().certificateAuthorities()) {
                try {
                    pem.append("-----BEGIN CERTIFICATE-----\n")
                            .append(Base64.getMimeEncoder(64, new byte[] {'\n'}).encodeToString(certificate.getEncoded()))
                            .append("\n-----END CERTIFICATE-----\n");
                } catch (CertificateEncodingException e) {
                    throw new ConfigException("cannot encode the CA certificate of " + config.source(), e);
                }
            }
            caPem = pem.toString().getBytes(StandardCharsets.US_ASCII);
        }
        return ExecCredentialPlugin.clusterInfo(config.server().toString(), config.tls().serverName(), caPem,
                config.tls().insecureSkipVerify());
    }

    /** No credentials, a fixed token or basic auth. */
    static final class Fixed extends Authenticator {
        private final Optional<String> header;

        Fixed(@Nullable String header) {
            this.header = Optional.ofNullable(header);
        }

        @Override
        Mono<Optional<String>> authorization() {
            return Mono.just(header);
        }
    }

    /** A token file, read again every {@code refresh} and after a 401. */
    static final class TokenFile extends Authenticator {
        private final Credentials.TokenFile file;
        private final Duration refresh;
        private final TimeSource time;
        private final String source;
        private @Nullable String token;
        private long readAtNanos;

        TokenFile(Credentials.TokenFile file, Duration refresh, TimeSource time, String source) {
            this.file = file;
            this.refresh = refresh;
            this.time = time;
            this.source = source;
        }

        @Override
        Mono<Optional<String>> authorization() {
            synchronized (this) {
                if (token != null && time.since(readAtNanos).compareTo(refresh) < 0) {
                    return Mono.just(Optional.of("Bearer " + token));
                }
            }
            return Mono.fromCallable(() -> Optional.of("Bearer " + read(false))).subscribeOn(Schedulers.boundedElastic());
        }

        @Override
        Mono<Boolean> refreshAfterUnauthorized(Optional<String> used) {
            return Mono.fromCallable(() -> {
                String fresh = read(true);
                return used.isEmpty() || !used.get().equals("Bearer " + fresh);
            }).subscribeOn(Schedulers.boundedElastic());
        }

        private synchronized String read(boolean force) {
            if (!force && token != null && time.since(readAtNanos).compareTo(refresh) < 0) {
                return token;
            }
            String problem;
            IOException cause = null;
            try {
                String content = Files.readString(file.file()).trim();
                if (!content.isEmpty()) {
                    token = content;
                    readAtNanos = time.nanoTime();
                    return content;
                }
                problem = "is empty";
            } catch (IOException e) {
                problem = "cannot be read: " + e.getMessage();
                cause = e;
            }
            if (token != null) {
                // Keep the last good token while the file is being replaced, as client-go does.
                log.debug("Token file {} {}; keeping the token read before", file.file(), problem);
                return token;
            }
            throw new ConfigException("token file " + file.file() + " (" + source + ") " + problem, cause);
        }
    }

    /**
     * An exec credential plugin's token and/or client certificate. The certificate goes to the
     * key manager before the request is sent, so the handshake of a new connection presents it.
     */
    static final class Exec extends Authenticator {
        private final ExecCredentialPlugin plugin;
        private final RotatingKeyManager keys;

        Exec(ExecCredentialPlugin plugin, RotatingKeyManager keys) {
            this.plugin = plugin;
            this.keys = keys;
        }

        @Override
        Mono<Optional<String>> authorization() {
            return Mono.fromCallable(() -> {
                ExecCredentialPlugin.Credential credential = plugin.credential();
                if (credential.certificate() != null) {
                    keys.use(credential.certificate());
                }
                return Optional.ofNullable(credential.token()).map(token -> "Bearer " + token);
            }).subscribeOn(Schedulers.boundedElastic());
        }

        @Override
        Mono<Boolean> refreshAfterUnauthorized(Optional<String> used) {
            // invalidate never blocks, so this may run on the I/O thread that delivered the 401
            plugin.invalidate(used.map(header -> header.substring("Bearer ".length())).orElse(null));
            return Mono.just(true); // run the plugin once more, as client-go does on a 401
        }
    }
}
