package dev.operatorstarter.test.internal;

import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.List;
import javax.security.auth.x500.X500Principal;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.ExtendedKeyUsage;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.asn1.x509.KeyPurposeId;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.cert.X509v3CertificateBuilder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509ExtensionUtils;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/**
 * The local API server's key material, generated fresh for every run: a certificate authority, a
 * serving certificate for loopback, client certificates, and the service-account signing key pair
 * that lets the TokenRequest API issue real tokens.
 *
 * <p>Certificates use ECDSA P-256 (fast to generate); the service-account key is RSA 2048, the
 * key type every JWT consumer accepts. Keys are written as PKCS#8 PEM.
 *
 * <p>Used by the local backend and by the fault proxy (its own authority for the certificates it
 * serves and issues to its clients). Not API.
 */
public final class Pki {

    private static final Duration VALIDITY = Duration.ofDays(30);
    private static final SecureRandom RANDOM = new SecureRandom();

    /** A certificate with its private key, both as PEM. */
    public record Issued(X509Certificate certificate, String certificatePem, String keyPem) {

        /** Names the subject only: the private key never reaches a log. */
        @Override
        public String toString() {
            return "Issued[" + certificate.getSubjectX500Principal().getName() + "]";
        }
    }

    /** An RSA key pair for signing service-account tokens, as PEM. */
    public record SigningKey(String privatePem, String publicPem) {

        @Override
        public String toString() {
            return "SigningKey[RSA]";
        }
    }

    private final KeyPair caKeys;
    private final X509Certificate caCertificate;
    private final String caPem;

    private Pki(KeyPair caKeys, X509Certificate caCertificate) {
        this.caKeys = caKeys;
        this.caCertificate = caCertificate;
        this.caPem = pem(caCertificate);
    }

    /** A new self-signed certificate authority. */
    public static Pki newAuthority(String commonName) {
        KeyPair keys = ecKeyPair();
        X500Principal subject = new X500Principal("CN=" + commonName);
        try {
            JcaX509ExtensionUtils extensions = new JcaX509ExtensionUtils();
            X509v3CertificateBuilder builder = builder(subject, subject, keys)
                    .addExtension(Extension.basicConstraints, true, new BasicConstraints(true))
                    .addExtension(Extension.keyUsage, true,
                            new KeyUsage(KeyUsage.keyCertSign | KeyUsage.cRLSign | KeyUsage.digitalSignature))
                    .addExtension(Extension.subjectKeyIdentifier, false,
                            extensions.createSubjectKeyIdentifier(keys.getPublic()));
            return new Pki(keys, sign(builder, keys));
        } catch (GeneralSecurityException | IOException e) {
            throw new IllegalStateException("cannot create the test certificate authority", e);
        }
    }

    public String caPem() {
        return caPem;
    }

    public X509Certificate caCertificate() {
        return caCertificate;
    }

    /**
     * A TLS server certificate for the given DNS names and IP addresses. It may also act as a
     * client: etcd's JSON gateway dials etcd's own gRPC port with the serving certificate, which
     * {@code --client-cert-auth} then checks as a client certificate.
     */
    public Issued serving(String commonName, List<String> dnsNames, List<String> ipAddresses) {
        GeneralName[] names = new GeneralName[dnsNames.size() + ipAddresses.size()];
        int i = 0;
        for (String dns : dnsNames) {
            names[i++] = new GeneralName(GeneralName.dNSName, dns);
        }
        for (String ip : ipAddresses) {
            names[i++] = new GeneralName(GeneralName.iPAddress, ip);
        }
        return issue("CN=" + commonName, new GeneralNames(names), KeyPurposeId.id_kp_serverAuth,
                KeyPurposeId.id_kp_clientAuth);
    }

    /**
     * A TLS client certificate. Kubernetes reads the user name from CN and the groups from O, so
     * {@code client("admin", "system:masters")} is a cluster administrator.
     */
    public Issued client(String user, String group) {
        return issue("CN=" + user + ",O=" + group, null, KeyPurposeId.id_kp_clientAuth);
    }

    private Issued issue(String subject, GeneralNames subjectAltNames, KeyPurposeId... purposes) {
        KeyPair keys = ecKeyPair();
        try {
            JcaX509ExtensionUtils extensions = new JcaX509ExtensionUtils();
            X509v3CertificateBuilder builder = builder(caCertificate.getSubjectX500Principal(),
                    new X500Principal(subject), keys)
                    .addExtension(Extension.basicConstraints, true, new BasicConstraints(false))
                    .addExtension(Extension.keyUsage, true,
                            new KeyUsage(KeyUsage.digitalSignature | KeyUsage.keyEncipherment))
                    .addExtension(Extension.extendedKeyUsage, false, new ExtendedKeyUsage(purposes))
                    .addExtension(Extension.authorityKeyIdentifier, false,
                            extensions.createAuthorityKeyIdentifier(caCertificate));
            if (subjectAltNames != null) {
                builder.addExtension(Extension.subjectAlternativeName, false, subjectAltNames);
            }
            X509Certificate certificate = sign(builder, caKeys);
            return new Issued(certificate, pem(certificate), pem(keys.getPrivate()));
        } catch (GeneralSecurityException | IOException e) {
            throw new IllegalStateException("cannot issue a test certificate for " + subject, e);
        }
    }

    /** A new RSA key pair for signing service-account tokens. */
    public static SigningKey serviceAccountKeyPair() {
        try {
            KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
            generator.initialize(2048, RANDOM);
            KeyPair keys = generator.generateKeyPair();
            return new SigningKey(pem(keys.getPrivate()), pem(keys.getPublic()));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("cannot generate the service-account signing key", e);
        }
    }

    private static JcaX509v3CertificateBuilder builder(X500Principal issuer, X500Principal subject, KeyPair keys) {
        Instant now = Instant.now();
        return new JcaX509v3CertificateBuilder(issuer, new BigInteger(127, RANDOM),
                Date.from(now.minus(Duration.ofHours(1))), Date.from(now.plus(VALIDITY)), subject, keys.getPublic());
    }

    private static X509Certificate sign(X509v3CertificateBuilder builder, KeyPair signer)
            throws GeneralSecurityException {
        try {
            return new JcaX509CertificateConverter().getCertificate(
                    builder.build(new JcaContentSignerBuilder("SHA256withECDSA").build(signer.getPrivate())));
        } catch (OperatorCreationException e) {
            throw new GeneralSecurityException(e);
        }
    }

    private static KeyPair ecKeyPair() {
        try {
            KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
            generator.initialize(new ECGenParameterSpec("secp256r1"), RANDOM);
            return generator.generateKeyPair();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("cannot generate an EC key pair", e);
        }
    }

    /** PEM text of a certificate, a PKCS#8 private key or an X.509 public key. */
    public static String pem(Object object) {
        StringWriter out = new StringWriter();
        try (JcaPEMWriter writer = new JcaPEMWriter(out)) {
            writer.writeObject(object instanceof java.security.PrivateKey key
                    ? new org.bouncycastle.openssl.jcajce.JcaPKCS8Generator(key, null) : object);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toString();
    }
}
