package dev.operatorstarter.client.config;

import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.util.List;
import java.util.Objects;

/**
 * A TLS client certificate chain and its private key.
 *
 * @param chain the certificate first, then any intermediates
 * @param key the certificate's private key (RSA, EC or Ed25519)
 */
public record ClientCertificate(List<X509Certificate> chain, PrivateKey key) {

    public ClientCertificate {
        chain = List.copyOf(chain);
        Objects.requireNonNull(key, "key");
        if (chain.isEmpty()) {
            throw new IllegalArgumentException("a client certificate needs at least one certificate");
        }
    }

    /** The subject only: key material never reaches a log. */
    @Override
    public String toString() {
        return "ClientCertificate[" + chain.get(0).getSubjectX500Principal().getName() + "]";
    }
}
