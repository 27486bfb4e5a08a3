package dev.operatorstarter.client.config;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.PrivateKey;
import java.security.Signature;
import java.security.cert.X509Certificate;
import java.util.List;

/** Reading certificates and keys for a configuration, with {@link ConfigException}s naming where. */
final class Certificates {

    private static final byte[] PROBE = "operator-starter key match".getBytes(StandardCharsets.US_ASCII);

    private Certificates() {
    }

    /**
     * A certificate for logs and messages: its subject and when it expires, never its encoding or
     * key (a whole {@code X509Certificate.toString()} is dozens of lines of hex).
     */
    static String summary(X509Certificate certificate) {
        return certificate.getSubjectX500Principal().getName() + " (expires " + certificate.getNotAfter().toInstant()
                + ")";
    }

    static List<X509Certificate> certificates(byte[] pem, String where) {
        try {
            return Pem.certificates(pem, where);
        } catch (IllegalArgumentException e) {
            throw new ConfigException.UnreadableCertificate(e.getMessage(), e);
        }
    }

    static PrivateKey privateKey(byte[] pem, String where) {
        try {
            return Pem.privateKey(pem, where);
        } catch (IllegalArgumentException e) {
            throw new ConfigException.UnreadableCertificate(e.getMessage(), e);
        }
    }

    /** The certificate and key as a pair, after checking that the key belongs to the certificate. */
    static ClientCertificate matching(List<X509Certificate> chain, PrivateKey key, String where) {
        String algorithm = switch (key.getAlgorithm()) {
            case "RSA" -> "SHA256withRSA";
            case "EC" -> "SHA256withECDSA";
            case "Ed25519", "EdDSA" -> "Ed25519";
            default -> throw new ConfigException.UnreadableCertificate(where + ": unsupported key algorithm " + key.getAlgorithm());
        };
        try {
            Signature signer = Signature.getInstance(algorithm);
            signer.initSign(key);
            signer.update(PROBE);
            byte[] signature = signer.sign();
            Signature verifier = Signature.getInstance(algorithm);
            verifier.initVerify(chain.get(0).getPublicKey());
            verifier.update(PROBE);
            if (!verifier.verify(signature)) {
                throw new ConfigException.UnreadableCertificate(where + " do not match: the key does not belong to the certificate "
                        + chain.get(0).getSubjectX500Principal().getName());
            }
        } catch (GeneralSecurityException e) {
            throw new ConfigException.UnreadableCertificate(where + " do not match: the key does not belong to the certificate "
                    + chain.get(0).getSubjectX500Principal().getName() + " (" + e.getMessage() + ")", e);
        }
        return new ClientCertificate(chain, key);
    }
}
