package dev.operatorstarter.autoconfigure.webhook;

import io.netty.handler.ssl.ClientAuth;
import io.netty.handler.ssl.SslContextBuilder;
import java.security.NoSuchAlgorithmException;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import javax.net.ssl.KeyManager;
import javax.net.ssl.SSLContext;
import reactor.netty.http.Http11SslContextSpec;

/**
 * The webhook server's TLS settings from {@link WebhookProperties}: the protocols from
 * {@code tls-min-version} up, the cipher suites of {@code tls-cipher-suites}, and with
 * {@code client-ca} a client certificate required and checked against that bundle. Made once per
 * start: {@link #of} reads the client CA and checks every cipher suite against the JDK's, so a
 * bad setting fails start-up naming the property rather than every handshake later.
 */
final class WebhookTls {

    private final List<String> protocols;
    private final List<String> cipherSuites;
    private final List<X509Certificate> clientCas;

    private WebhookTls(List<String> protocols, List<String> cipherSuites, List<X509Certificate> clientCas) {
        this.protocols = protocols;
        this.cipherSuites = cipherSuites;
        this.clientCas = clientCas;
    }

    /**
     * @throws InvalidWebhookException when {@code client-ca} cannot be read or holds no certificate,
     *     or a cipher suite is not one the JDK supports
     */
    static WebhookTls of(WebhookProperties properties) {
        Set<String> supported;
        try {
            supported = Set.of(SSLContext.getDefault().getSupportedSSLParameters().getCipherSuites());
        } catch (NoSuchAlgorithmException e) {
            throw new InvalidWebhookException("the JDK offers no TLS implementation for the webhook server", e);
        }
        List<String> unknown = new ArrayList<>();
        for (String suite : properties.tlsCipherSuites()) {
            if (!supported.contains(suite)) {
                unknown.add(suite);
            }
        }
        if (!unknown.isEmpty()) {
            throw new InvalidWebhookException("operator.webhook.tls-cipher-suites names cipher suites this JDK does "
                    + "not support: " + unknown + "; use standard names such as TLS_AES_128_GCM_SHA256 or "
                    + "TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256");
        }
        List<X509Certificate> cas = properties.clientCa() == null ? List.of()
                : List.copyOf(CertificateFiles.certificates(properties.clientCa(), "operator.webhook.client-ca"));
        return new WebhookTls(properties.tlsProtocols(), properties.tlsCipherSuites(), cas);
    }

    /** Whether a client certificate is required. */
    boolean clientCertificateRequired() {
        return !clientCas.isEmpty();
    }

    /** The server's TLS context over {@code keys}. */
    Http11SslContextSpec spec(KeyManager keys) {
        return Http11SslContextSpec.forServer(keys).configure(this::configure);
    }

    private void configure(SslContextBuilder builder) {
        builder.protocols(protocols).ciphers(cipherSuites);
        if (!clientCas.isEmpty()) {
            builder.trustManager(clientCas).clientAuth(ClientAuth.REQUIRE);
        }
    }

    /** The protocols and, with a client CA, how many CAs; for the start-up log. */
    String describe() {
        return String.join("/", protocols) + (clientCas.isEmpty() ? "" : ", client certificates signed by "
                + clientCas.size() + " CA(s) required");
    }
}
