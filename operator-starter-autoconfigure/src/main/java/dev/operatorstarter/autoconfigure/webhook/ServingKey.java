package dev.operatorstarter.autoconfigure.webhook;

import java.security.PrivateKey;
import java.security.cert.CertificateEncodingException;
import java.security.cert.X509Certificate;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * What the webhook server presents in TLS handshakes, and the CA clients should trust.
 *
 * @param key the serving certificate's private key
 * @param chain the serving certificate first, then any intermediates
 * @param caPem the CA certificate(s) as PEM, to inject as {@code caBundle}; null when unknown
 */
record ServingKey(PrivateKey key, List<X509Certificate> chain, @Nullable String caPem) {

    ServingKey {
        Objects.requireNonNull(key, "key");
        chain = List.copyOf(chain);
        if (chain.isEmpty()) {
            throw new IllegalArgumentException("a serving key needs its certificate");
        }
    }

    X509Certificate certificate() {
        return chain.get(0);
    }

    Instant notAfter() {
        return certificate().getNotAfter().toInstant();
    }

    /** Whether {@code other} serves the same certificate with the same CA. */
    boolean sameAs(@Nullable ServingKey other) {
        return other != null && other.certificate().equals(certificate()) && Objects.equals(other.caPem(), caPem);
    }

    /** PEM text of {@code certificate}. */
    static String pem(X509Certificate certificate) {
        try {
            return "-----BEGIN CERTIFICATE-----\n"
                    + Base64.getMimeEncoder(64, new byte[] {'\n'}).encodeToString(certificate.getEncoded())
                    + "\n-----END CERTIFICATE-----\n";
        } catch (CertificateEncodingException e) {
            throw new IllegalStateException("cannot encode the certificate of " + certificate.getSubjectX500Principal(), e);
        }
    }

    /** Never prints the key. */
    @Override
    public String toString() {
        return "ServingKey[" + certificate().getSubjectX500Principal().getName() + ", until " + notAfter() + "]";
    }
}
