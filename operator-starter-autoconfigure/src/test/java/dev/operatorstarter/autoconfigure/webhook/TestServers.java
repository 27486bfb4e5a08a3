package dev.operatorstarter.autoconfigure.webhook;

import dev.operatorstarter.time.TimeSource;
import dev.operatorstarter.webhook.AdmissionEndpoint;
import io.fabric8.kubernetes.api.model.ConfigMap;
import java.io.ByteArrayInputStream;
import java.math.BigInteger;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.KeyStore;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.TrustManagerFactory;
import javax.security.auth.x500.X500Principal;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.ExtendedKeyUsage;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.KeyPurposeId;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;

/**
 * Real webhook servers for the limit and TLS tests: a {@link NettyWebhookServer} on a free port of
 * 127.0.0.1 with a generated certificate and {@link ConfigMapGuard} at {@value #PATH}, with TLS
 * contexts to call it, client certificates, and the review a well-behaved caller sends.
 */
final class TestServers {

    static final String PATH = "/validate-configmaps";
    static final String REVIEW = """
            {"apiVersion":"admission.k8s.io/v1","kind":"AdmissionReview","request":{"uid":"u1",
             "kind":{"group":"","version":"v1","kind":"ConfigMap"},"operation":"CREATE","userInfo":{"username":"a"},
             "object":{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"c"},"data":{"a":"b"}}}}""";

    private TestServers() {
    }

    /** A started server with {@code values} under {@code operator.webhook.}; the caller stops it. */
    static NettyWebhookServer start(Map<String, String> values) {
        Map<String, String> all = new HashMap<>(Map.of("port", "0", "address", "127.0.0.1", "enabled", "true"));
        all.putAll(values);
        Map<String, String> prefixed = new LinkedHashMap<>();
        all.forEach((key, value) -> prefixed.put("operator.webhook." + key, value));
        WebhookProperties properties = new Binder(new MapConfigurationPropertySource(prefixed))
                .bindOrCreate("operator.webhook", WebhookProperties.class);
        NettyWebhookServer server = new NettyWebhookServer(properties,
                Map.of(PATH, AdmissionEndpoint.validating(ConfigMap.class, new ConfigMapGuard())),
                () -> new GeneratedCertificate(List.of("localhost"), List.of("127.0.0.1"), Duration.ofDays(1),
                        TimeSource.system()), null, WebhookMetrics.NONE, TimeSource.system());
        server.start();
        return server;
    }

    /** Whether a well-behaved caller, on a new connection, gets the review answered. */
    static boolean answers(NettyWebhookServer server) throws Exception {
        HttpResponse<String> response = new WebhookClient(server.caCertificatePem(), server.port())
                .post(PATH, "application/json", REVIEW);
        return response.statusCode() == 200 && response.body().contains("\"allowed\":true");
    }

    /** The status of a well-behaved review call over {@code tls} with {@code parameters} (protocols, cipher suites). */
    static int call(NettyWebhookServer server, SSLContext tls, SSLParameters parameters) throws Exception {
        HttpClient http = HttpClient.newBuilder().sslContext(tls).sslParameters(parameters)
                .version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(10)).build();
        return http.send(HttpRequest.newBuilder(URI.create("https://127.0.0.1:" + server.port() + PATH))
                .header("Content-Type", "application/json").timeout(Duration.ofSeconds(10))
                .POST(HttpRequest.BodyPublishers.ofString(REVIEW)).build(), HttpResponse.BodyHandlers.ofString())
                .statusCode();
    }

    /** A TLS context trusting the server's CA, presenting {@code client} when not null. */
    static SSLContext tls(NettyWebhookServer server, ClientCertificate client) throws Exception {
        KeyStore trusted = KeyStore.getInstance("PKCS12");
        trusted.load(null, null);
        int i = 0;
        for (var certificate : CertificateFactory.getInstance("X.509").generateCertificates(
                new ByteArrayInputStream(server.caCertificatePem().getBytes(StandardCharsets.US_ASCII)))) {
            trusted.setCertificateEntry("ca" + i++, certificate);
        }
        TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        trust.init(trusted);
        KeyManagerFactory keys = null;
        if (client != null) {
            KeyStore store = KeyStore.getInstance("PKCS12");
            store.load(null, null);
            store.setKeyEntry("client", client.keys().getPrivate(), new char[0],
                    new X509Certificate[] {client.certificate()});
            keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
            keys.init(store, new char[0]);
        }
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(keys == null ? null : keys.getKeyManagers(), trust.getTrustManagers(), null);
        return context;
    }

    /** A CA and a client certificate it signed (extended key usage clientAuth), as the API server's kubeconfig holds. */
    record ClientCertificate(X509Certificate ca, KeyPair keys, X509Certificate certificate) {

        static ClientCertificate generate(String name) throws Exception {
            KeyPair caKeys = keyPair();
            X500Principal caName = new X500Principal("CN=" + name + "-ca");
            Instant now = Instant.now();
            X509Certificate ca = sign(new JcaX509v3CertificateBuilder(caName, BigInteger.ONE,
                    Date.from(now.minus(Duration.ofHours(1))), Date.from(now.plus(Duration.ofDays(1))), caName,
                    caKeys.getPublic())
                    .addExtension(Extension.basicConstraints, true, new BasicConstraints(0))
                    .addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.keyCertSign)), caKeys);
            KeyPair keys = keyPair();
            X509Certificate certificate = sign(new JcaX509v3CertificateBuilder(caName, BigInteger.TWO,
                    Date.from(now.minus(Duration.ofHours(1))), Date.from(now.plus(Duration.ofDays(1))),
                    new X500Principal("CN=" + name), keys.getPublic())
                    .addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.digitalSignature))
                    .addExtension(Extension.extendedKeyUsage, false, new ExtendedKeyUsage(KeyPurposeId.id_kp_clientAuth)),
                    caKeys);
            return new ClientCertificate(ca, keys, certificate);
        }

        String caPem() throws Exception {
            return ServingKey.pem(ca);
        }

        private static X509Certificate sign(org.bouncycastle.cert.X509v3CertificateBuilder builder, KeyPair signer) throws Exception {
            return new JcaX509CertificateConverter().getCertificate(
                    builder.build(new JcaContentSignerBuilder("SHA256withECDSA").build(signer.getPrivate())));
        }

        private static KeyPair keyPair() throws Exception {
            KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
            generator.initialize(new ECGenParameterSpec("secp256r1"));
            return generator.generateKeyPair();
        }
    }
}
