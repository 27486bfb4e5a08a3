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

    /**
     * Reads a PEM certificate chain and private key (RSA, EC or Ed25519; PKCS#1, SEC1 or PKCS#8)
     * and checks that the key belongs to the certificate.
     *
     * @param where names the source in error messages, for example a kubeconfig field
     * @throws ConfigException naming {@code where} when either cannot be read or they do not match
     */
    public static ClientCertificate fromPem(byte[] certificatePem, byte[] keyPem, String where) {
        return Certificates.matching(Certificates.certificates(certificatePem, where + " certificate"),
                Certificates.privateKey(keyPem, where + " key"), where + " certificate and key");
    }

    /** The certificate's subject and expiry only: key material never reaches a log. */
    @Override
    public String toString() {
        return "ClientCertificate[" + Certificates.summary(chain.get(0)) + "]";
    }
}
