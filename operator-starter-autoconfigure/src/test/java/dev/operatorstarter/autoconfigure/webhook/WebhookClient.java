package dev.operatorstarter.autoconfigure.webhook;

import java.io.ByteArrayInputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.KeyStore;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509TrustManager;

/** Calls a webhook server over HTTPS as the API server does, trusting one CA; remembers the certificate it saw. */
final class WebhookClient {

    private final HttpClient http;
    private final AtomicReference<X509Certificate> served = new AtomicReference<>();
    private final int port;

    WebhookClient(String caPem, int port) throws Exception {
        this.port = port;
        KeyStore trusted = KeyStore.getInstance(KeyStore.getDefaultType());
        trusted.load(null, null);
        int i = 0;
        for (var certificate : CertificateFactory.getInstance("X.509")
                .generateCertificates(new ByteArrayInputStream(caPem.getBytes(StandardCharsets.US_ASCII)))) {
            trusted.setCertificateEntry("ca" + i++, certificate);
        }
        TrustManagerFactory factory = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        factory.init(trusted);
        X509TrustManager delegate = (X509TrustManager) factory.getTrustManagers()[0];
        X509TrustManager recording = new javax.net.ssl.X509ExtendedTrustManager() {
            @Override
            public void checkServerTrusted(X509Certificate[] chain, String authType, java.net.Socket socket)
                    throws java.security.cert.CertificateException {
                ((javax.net.ssl.X509ExtendedTrustManager) delegate).checkServerTrusted(chain, authType, socket);
                served.set(chain[0]);
            }

            @Override
            public void checkServerTrusted(X509Certificate[] chain, String authType, javax.net.ssl.SSLEngine engine)
                    throws java.security.cert.CertificateException {
                ((javax.net.ssl.X509ExtendedTrustManager) delegate).checkServerTrusted(chain, authType, engine);
                served.set(chain[0]);
            }

            @Override
            public void checkServerTrusted(X509Certificate[] chain, String authType)
                    throws java.security.cert.CertificateException {
                delegate.checkServerTrusted(chain, authType);
                served.set(chain[0]);
            }

            @Override
            public void checkClientTrusted(X509Certificate[] chain, String authType, java.net.Socket socket) {
                throw new UnsupportedOperationException();
            }

            @Override
            public void checkClientTrusted(X509Certificate[] chain, String authType, javax.net.ssl.SSLEngine engine) {
                throw new UnsupportedOperationException();
            }

            @Override
            public void checkClientTrusted(X509Certificate[] chain, String authType) {
                throw new UnsupportedOperationException();
            }

            @Override
            public X509Certificate[] getAcceptedIssuers() {
                return delegate.getAcceptedIssuers();
            }
        };
        SSLContext ssl = SSLContext.getInstance("TLS");
        ssl.init(null, new javax.net.ssl.TrustManager[] {recording}, null);
        // a new client per instance: no connection (and no certificate) is reused across instances
        this.http = HttpClient.newBuilder().sslContext(ssl).version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(5)).build();
    }

    HttpResponse<String> post(String path, String contentType, String body) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create("https://127.0.0.1:" + port + path))
                .header("Content-Type", contentType).timeout(Duration.ofSeconds(10))
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
    }

    HttpResponse<String> get(String path) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create("https://127.0.0.1:" + port + path))
                .timeout(Duration.ofSeconds(10)).GET().build(), HttpResponse.BodyHandlers.ofString());
    }

    /** The serving certificate of the last handshake. */
    X509Certificate served() {
        return served.get();
    }
}
