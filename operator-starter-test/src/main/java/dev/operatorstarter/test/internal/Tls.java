package dev.operatorstarter.test.internal;

import java.io.IOException;
import java.io.StringReader;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.CertificateException;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.List;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import org.bouncycastle.asn1.pkcs.PrivateKeyInfo;
import org.bouncycastle.cert.X509CertificateHolder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.openssl.PEMKeyPair;
import org.bouncycastle.openssl.PEMParser;
import org.bouncycastle.openssl.jcajce.JcaPEMKeyConverter;
import org.jspecify.annotations.Nullable;

/**
 * PEM parsing and {@link SSLContext} building for the test harness's own HTTP calls. Reads the
 * key formats kubeconfigs carry: PKCS#8, PKCS#1 RSA and SEC1 EC. Not API.
 */
public final class Tls {

    private Tls() {
    }

    /** Parses every certificate in a PEM text; {@code what} names the source in errors. */
    public static List<X509Certificate> certificates(String pem, String what) {
        List<X509Certificate> certificates = new ArrayList<>();
        try (PEMParser parser = new PEMParser(new StringReader(pem))) {
            JcaX509CertificateConverter converter = new JcaX509CertificateConverter();
            for (Object item = parser.readObject(); item != null; item = parser.readObject()) {
                if (item instanceof X509CertificateHolder holder) {
                    certificates.add(converter.getCertificate(holder));
                }
            }
        } catch (IOException | CertificateException e) {
            throw new IllegalArgumentException(what + " is not a readable PEM certificate: " + e.getMessage(), e);
        }
        if (certificates.isEmpty()) {
            throw new IllegalArgumentException(what + " holds no PEM certificate (expected a 'BEGIN CERTIFICATE' block)");
        }
        return certificates;
    }

    /** Parses one private key (PKCS#8, PKCS#1 RSA or SEC1 EC) from PEM text. */
    public static PrivateKey privateKey(String pem, String what) {
        try (PEMParser parser = new PEMParser(new StringReader(pem))) {
            JcaPEMKeyConverter converter = new JcaPEMKeyConverter();
            for (Object item = parser.readObject(); item != null; item = parser.readObject()) {
                if (item instanceof PEMKeyPair pair) {
                    return converter.getPrivateKey(pair.getPrivateKeyInfo());
                }
                if (item instanceof PrivateKeyInfo info) {
                    return converter.getPrivateKey(info);
                }
            }
        } catch (IOException e) {
            throw new IllegalArgumentException(what + " is not a readable PEM private key: " + e.getMessage(), e);
        }
        throw new IllegalArgumentException(what + " holds no unencrypted PEM private key "
                + "(expected 'BEGIN PRIVATE KEY', 'BEGIN RSA PRIVATE KEY' or 'BEGIN EC PRIVATE KEY')");
    }

    /**
     * An SSL context that trusts only {@code caPem} and, when both are given, presents the client
     * certificate chain and key. Host names are verified by the HTTP client as usual.
     */
    public static SSLContext sslContext(String caPem, @Nullable String clientCertificatePem,
            @Nullable String clientKeyPem) {
        try {
            KeyStore trust = KeyStore.getInstance(KeyStore.getDefaultType());
            trust.load(null, null);
            int i = 0;
            for (X509Certificate ca : certificates(caPem, "the certificate authority")) {
                trust.setCertificateEntry("ca-" + i++, ca);
            }
            TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            tmf.init(trust);

            KeyManagerFactory kmf = null;
            if (clientCertificatePem != null && clientKeyPem != null) {
                char[] password = new char[0];
                KeyStore keys = KeyStore.getInstance("PKCS12");
                keys.load(null, null);
                List<X509Certificate> chain = certificates(clientCertificatePem, "the client certificate");
                keys.setKeyEntry("client", privateKey(clientKeyPem, "the client key"), password,
                        chain.toArray(X509Certificate[]::new));
                kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
                kmf.init(keys, password);
            }
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(kmf == null ? null : kmf.getKeyManagers(), tmf.getTrustManagers(), null);
            return context;
        } catch (GeneralSecurityException | IOException e) {
            throw new IllegalStateException("cannot build a TLS context: " + e.getMessage(), e);
        }
    }
}
