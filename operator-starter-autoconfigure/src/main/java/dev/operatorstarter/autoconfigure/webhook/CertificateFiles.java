package dev.operatorstarter.autoconfigure.webhook;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.PrivateKey;
import java.security.SecureRandom;
import java.security.Signature;
import java.security.cert.X509Certificate;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.ssl.pem.PemContent;

/**
 * A certificate and key supplied as PEM files, read again on every {@link #load()} so a rotation
 * (cert-manager renewing the Secret mounted there) is picked up. A pair that does not belong
 * together, or a certificate the CA file did not sign, as while a rotation is half written or was
 * read half before and half after the kubelet swapped the files, is refused rather than served.
 * The CA file is read last: a rotation read across a swap then shows the old certificate with the
 * new CA, which is refused, never the new certificate with the old CA.
 */
final class CertificateFiles implements CertificateSource {

    private static final SecureRandom RANDOM = new SecureRandom();

    private final Path certFile;
    private final Path keyFile;
    private final @Nullable Path caFile;

    CertificateFiles(Path certFile, Path keyFile, @Nullable Path caFile) {
        this.certFile = certFile;
        this.keyFile = keyFile;
        this.caFile = caFile;
    }

    @Override
    public ServingKey load() {
        List<X509Certificate> chain = certificates(certFile, "operator.webhook.certificate.cert-file");
        PrivateKey key;
        try {
            key = PemContent.of(read(keyFile, "operator.webhook.certificate.key-file")).getPrivateKey();
        } catch (IllegalStateException e) {
            throw new InvalidWebhookException("operator.webhook.certificate.key-file " + keyFile
                    + " holds no readable private key: " + e.getMessage(), e);
        }
        if (key == null) {
            throw new InvalidWebhookException("operator.webhook.certificate.key-file " + keyFile
                    + " holds no PEM private key");
        }
        if (!belongTogether(key, chain.get(0))) {
            throw new InvalidWebhookException("the key in " + keyFile + " is not the key of the certificate in "
                    + certFile + " (" + chain.get(0).getSubjectX500Principal().getName() + ")");
        }
        String caPem = null;
        if (caFile != null) {
            List<X509Certificate> cas = certificates(caFile, "operator.webhook.certificate.ca-file");
            if (!signedBy(chain, cas)) {
                throw new InvalidWebhookException("the certificate in " + certFile + " ("
                        + chain.get(0).getSubjectX500Principal().getName() + ") is not signed by a CA in " + caFile);
            }
            caPem = cas.stream().map(ServingKey::pem).reduce("", String::concat);
        }
        return new ServingKey(key, chain, caPem);
    }

    @Override
    public String describe() {
        return "files " + certFile + " and " + keyFile;
    }

    /** The certificates of a PEM file, at least one; an {@link InvalidWebhookException} naming {@code property} otherwise. */
    static List<X509Certificate> certificates(Path file, String property) {
        List<X509Certificate> certificates;
        try {
            certificates = PemContent.of(read(file, property)).getCertificates();
        } catch (IllegalStateException e) {
            throw new InvalidWebhookException(property + " " + file + " holds no readable certificate: "
                    + e.getMessage(), e);
        }
        if (certificates == null || certificates.isEmpty()) {
            throw new InvalidWebhookException(property + " " + file + " holds no PEM certificate");
        }
        return certificates;
    }

    private static String read(Path file, String property) {
        try {
            return Files.readString(file, StandardCharsets.US_ASCII);
        } catch (IOException e) {
            throw new InvalidWebhookException("cannot read " + property + " " + file + ": " + e, e);
        }
    }

    /** Whether a certificate of the chain is one of the CAs or carries the signature of one. */
    private static boolean signedBy(List<X509Certificate> chain, List<X509Certificate> cas) {
        for (X509Certificate certificate : chain) {
            for (X509Certificate ca : cas) {
                if (certificate.equals(ca)) {
                    return true;
                }
                try {
                    certificate.verify(ca.getPublicKey());
                    return true;
                } catch (GeneralSecurityException | RuntimeException e) {
                    // not this one
                }
            }
        }
        return false;
    }

    /** Signs a random challenge with the key and checks it with the certificate's public key. */
    private static boolean belongTogether(PrivateKey key, X509Certificate certificate) {
        String algorithm = switch (key.getAlgorithm()) {
            case "RSA" -> "SHA256withRSA";
            case "EC" -> "SHA256withECDSA";
            case "Ed25519", "EdDSA" -> "Ed25519";
            default -> null;
        };
        if (algorithm == null) {
            return true; // cannot check; the handshake will tell
        }
        try {
            byte[] challenge = new byte[32];
            RANDOM.nextBytes(challenge);
            Signature signer = Signature.getInstance(algorithm);
            signer.initSign(key);
            signer.update(challenge);
            byte[] signature = signer.sign();
            Signature verifier = Signature.getInstance(algorithm);
            verifier.initVerify(certificate.getPublicKey());
            verifier.update(challenge);
            return verifier.verify(signature);
        } catch (GeneralSecurityException e) {
            return false;
        }
    }
}
