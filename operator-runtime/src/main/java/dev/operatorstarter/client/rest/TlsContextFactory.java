package dev.operatorstarter.client.rest;

import dev.operatorstarter.client.config.ConfigException;
import dev.operatorstarter.client.config.TlsSettings;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.util.InsecureTrustManagerFactory;
import io.netty.handler.ssl.util.TrustManagerFactoryWrapper;
import java.io.IOException;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.Arrays;
import java.util.Enumeration;
import java.util.List;
import javax.net.ssl.SNIHostName;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSession;
import javax.net.ssl.SSLSessionContext;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509ExtendedTrustManager;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.netty.http.client.HttpClient;
import reactor.netty.tcp.SslProvider;

/**
 * The client side of TLS to the API server, from a configuration's {@link TlsSettings}: whom to
 * trust (the configuration's certificate authorities, else the JVM's trust store; nobody checked
 * with {@code insecure-skip-tls-verify}), which name to check ({@code tls-server-name}, sent as
 * SNI and checked by {@link ServerNameTrustManager}, else the URL's host), and the client
 * certificate ({@link RotatingKeyManager}: the kubeconfig's, or the one an exec plugin supplies
 * and rotates later; no TLS session made with an old certificate is resumed after a rotation).
 */
final class TlsContextFactory {

    private static final Logger log = LoggerFactory.getLogger(HttpTransport.class);

    private TlsContextFactory() {
    }

    /**
     * {@code http} secured per {@code tls}.
     *
     * @param source names the configuration in errors and warnings
     * @throws ConfigException when the trust or key material cannot be set up
     */
    static HttpClient secure(HttpClient http, TlsSettings tls, String source, RotatingKeyManager keys,
            Duration handshakeTimeout) {
        SslContext ssl = sslContext(tls, source, keys);
        // A resumed TLS session keeps the identity it was made with: after the client
        // certificate rotates, no old session may be resumed.
        keys.onRotation(() -> forgetSessions(ssl));
        String serverName = tls.serverName();
        boolean verifyHost = !tls.insecureSkipVerify();
        // Through secure(SslProvider): secure(Consumer) loads Reactor Netty's HttpClientSecure, whose
        // static defaults are SSL contexts trusting the JVM's trust store, kept for the JVM's life
        // (0.5 MB: some 145 CA certificates) though this client never uses them. What those defaults
        // add to a provider, the check of the URL's host name, is set below either way.
        SslProvider.Builder spec = SslProvider.builder().sslContext(ssl).handshakeTimeout(handshakeTimeout);
        if (serverName != null) {
            spec.serverNames(new SNIHostName(serverName));
        }
        spec.handlerConfigurator(handler -> {
            SSLEngine engine = handler.engine();
            SSLParameters parameters = engine.getSSLParameters();
            // The JDK checks the name against the URL's host; with tls-server-name our
            // trust manager checks that name instead (and only that name).
            parameters.setEndpointIdentificationAlgorithm(verifyHost && serverName == null ? "HTTPS" : null);
            if (serverName != null) {
                parameters.setServerNames(List.of(new SNIHostName(serverName)));
            }
            engine.setSSLParameters(parameters);
        });
        return http.secure(spec.build());
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
                    X509ExtendedTrustManager chain = Arrays.stream(factory.getTrustManagers())
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
        SSLSessionContext sessions = ssl.sessionContext();
        if (sessions == null) {
            return;
        }
        for (Enumeration<byte[]> ids = sessions.getIds(); ids.hasMoreElements(); ) {
            SSLSession session = sessions.getSession(ids.nextElement());
            if (session != null) {
                session.invalidate();
            }
        }
    }
}
