package dev.operatorstarter.client.rest;

import java.math.BigInteger;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.KeyStore;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.Instant;
import java.util.Date;
import java.util.List;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import javax.security.auth.x500.X500Principal;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/** A CA, a server certificate for one DNS name (no IP address) and a client certificate, for TLS tests. */
final class TlsFixtures {

    final KeyPair caKeys = keys();
    final X509Certificate ca;
    final KeyPair serverKeys = keys();
    final X509Certificate server;
    final KeyPair clientKeys = keys();
    final X509Certificate client;

    /** Server names: DNS names, or IPv4 literals (which become IP address entries). */
    TlsFixtures(String serverName, String... moreNames) {
        try {
            X500Principal caName = new X500Principal("CN=test-ca");
            ca = sign(new JcaX509v3CertificateBuilder(caName, BigInteger.ONE, from(), to(), caName, caKeys.getPublic())
                    .addExtension(Extension.basicConstraints, true, new BasicConstraints(true)));
            server = sign(new JcaX509v3CertificateBuilder(caName, BigInteger.TWO, from(), to(),
                    new X500Principal("CN=" + serverName), serverKeys.getPublic())
                    .addExtension(Extension.subjectAlternativeName, false, names(serverName, moreNames)));
            client = sign(new JcaX509v3CertificateBuilder(caName, BigInteger.TEN, from(), to(),
                    new X500Principal("CN=tester"), clientKeys.getPublic()));
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /** A client certificate from this CA with common name {@code name}, and its key. */
    Issued client(String name) {
        try {
            KeyPair keys = keys();
            X509Certificate certificate = sign(new JcaX509v3CertificateBuilder(new X500Principal("CN=test-ca"),
                    BigInteger.valueOf(System.nanoTime()), from(), to(), new X500Principal("CN=" + name),
                    keys.getPublic()));
            return new Issued(certificate, keys);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /** A certificate and its keys. */
    record Issued(X509Certificate certificate, KeyPair keys) {

        String certificatePem() {
            return pem(certificate);
        }

        String keyPem() {
            return pem(keys.getPrivate());
        }

        private static String pem(Object object) {
            java.io.StringWriter out = new java.io.StringWriter();
            try (var writer = new org.bouncycastle.openssl.jcajce.JcaPEMWriter(out)) {
                writer.writeObject(object instanceof java.security.PrivateKey key
                        ? new org.bouncycastle.openssl.jcajce.JcaPKCS8Generator(key, null).generate() : object);
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
            return out.toString();
        }
    }

    /** The server's TLS context; with {@code requireClientCertificate}, clients must present one from the CA. */
    SSLContext serverContext() throws Exception {
        KeyStore keyStore = KeyStore.getInstance("PKCS12");
        keyStore.load(null, null);
        keyStore.setKeyEntry("server", serverKeys.getPrivate(), new char[0], new X509Certificate[] {server, ca});
        KeyManagerFactory keyManagers = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        keyManagers.init(keyStore, new char[0]);
        KeyStore trust = KeyStore.getInstance("PKCS12");
        trust.load(null, null);
        trust.setCertificateEntry("ca", ca);
        TrustManagerFactory trustManagers = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        trustManagers.init(trust);
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(keyManagers.getKeyManagers(), trustManagers.getTrustManagers(), null);
        return context;
    }

    private static GeneralNames names(String first, String... more) {
        List<GeneralName> names = new java.util.ArrayList<>();
        for (String name : java.util.stream.Stream.concat(java.util.stream.Stream.of(first),
                java.util.Arrays.stream(more)).toList()) {
            names.add(new GeneralName(name.matches("[\\d.]+") ? GeneralName.iPAddress : GeneralName.dNSName, name));
        }
        return new GeneralNames(names.toArray(GeneralName[]::new));
    }

    private X509Certificate sign(org.bouncycastle.cert.X509v3CertificateBuilder builder) throws Exception {
        return new JcaX509CertificateConverter().getCertificate(
                builder.build(new JcaContentSignerBuilder("SHA256withECDSA").build(caKeys.getPrivate())));
    }

    private static KeyPair keys() {
        try {
            KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
            generator.initialize(new ECGenParameterSpec("secp256r1"));
            return generator.generateKeyPair();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static Date from() {
        return Date.from(Instant.now().minusSeconds(60));
    }

    private static Date to() {
        return Date.from(Instant.now().plusSeconds(3600));
    }
}
