package dev.operatorstarter.autoconfigure.webhook;

import dev.operatorstarter.time.TimeSource;
import java.math.BigInteger;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import java.util.Objects;
import javax.security.auth.x500.X500Principal;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.ExtendedKeyUsage;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.asn1.x509.KeyPurposeId;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.cert.CertIOException;
import org.bouncycastle.cert.X509v3CertificateBuilder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509ExtensionUtils;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;
import org.jspecify.annotations.Nullable;

/**
 * A certificate authority and a serving certificate signed by it, made on the first
 * {@link #load()} and made anew, both, once a third of their validity is left ({@link #RENEW_WHEN_LEFT}):
 * ECDSA P-256 keys (quick to make), SHA-256 signatures, the serving certificate for the configured
 * DNS names and IP addresses with the server-auth usage. The CA is what gets injected as
 * {@code caBundle}; the server serves a renewed certificate only once its CA is injected. Uses
 * BouncyCastle to build the certificates (the JDK has no public API for it). Time comes from a
 * {@link TimeSource}, so a test can move it; thread-safe.
 */
final class GeneratedCertificate implements CertificateSource {

    private static final SecureRandom RANDOM = new SecureRandom();
    /** Clocks of the API server's nodes may lag ours: the certificates are valid from a little before now. */
    private static final Duration BACKDATE = Duration.ofMinutes(5);
    /** The part of the validity left when the certificates are made anew: a third, as cert-manager renews. */
    static final double RENEW_WHEN_LEFT = 1.0 / 3;

    private final List<String> dnsNames;
    private final List<String> ipAddresses;
    private final Duration validity;
    private final TimeSource time;
    private @Nullable ServingKey generated; // guarded by this
    private @Nullable Instant renewAt; // guarded by this

    GeneratedCertificate(List<String> dnsNames, List<String> ipAddresses, Duration validity, TimeSource time) {
        this.dnsNames = List.copyOf(dnsNames);
        this.ipAddresses = List.copyOf(ipAddresses);
        this.validity = validity;
        this.time = Objects.requireNonNull(time, "time");
    }

    /** The certificate made last; a new CA and certificate once a third of its validity is left. */
    @Override
    public synchronized ServingKey load() {
        Instant now = time.now();
        if (generated == null || renewAt == null || !now.isBefore(renewAt)) {
            generated = generate(now);
            renewAt = generated.notAfter().minus(Duration.ofMillis((long) (validity.toMillis() * RENEW_WHEN_LEFT)));
        }
        return generated;
    }

    @Override
    public String describe() {
        return "generated for " + String.join(", ", names());
    }

    private List<String> names() {
        List<String> names = new ArrayList<>(dnsNames);
        names.addAll(ipAddresses);
        return names;
    }

    private ServingKey generate(Instant now) {
        GeneralNames alternativeNames = alternativeNames();
        try {
            KeyPair caKeys = keyPair();
            X500Principal ca = new X500Principal("CN=operator-webhook-ca");
            JcaX509ExtensionUtils extensions = new JcaX509ExtensionUtils();
            X509Certificate caCertificate = sign(builder(ca, ca, caKeys, now)
                    .addExtension(Extension.basicConstraints, true, new BasicConstraints(0))
                    .addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.keyCertSign | KeyUsage.cRLSign))
                    .addExtension(Extension.subjectKeyIdentifier, false,
                            extensions.createSubjectKeyIdentifier(caKeys.getPublic())), caKeys);
            KeyPair servingKeys = keyPair();
            String commonName = dnsNames.isEmpty() ? ipAddresses.get(0) : dnsNames.get(0);
            X509Certificate serving = sign(builder(ca, new X500Principal("CN=" + commonName), servingKeys, now)
                    .addExtension(Extension.basicConstraints, true, new BasicConstraints(false))
                    .addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.digitalSignature))
                    .addExtension(Extension.extendedKeyUsage, false, new ExtendedKeyUsage(KeyPurposeId.id_kp_serverAuth))
                    .addExtension(Extension.subjectAlternativeName, false, alternativeNames)
                    .addExtension(Extension.authorityKeyIdentifier, false,
                            extensions.createAuthorityKeyIdentifier(caCertificate)), caKeys);
            return new ServingKey(servingKeys.getPrivate(), List.of(serving), ServingKey.pem(caCertificate));
        } catch (GeneralSecurityException | CertIOException | OperatorCreationException e) {
            throw new InvalidWebhookException("cannot generate the webhook server's certificate for " + names() + ": "
                    + e, e);
        }
    }

    private GeneralNames alternativeNames() {
        List<GeneralName> names = new ArrayList<>();
        for (String dns : dnsNames) {
            names.add(new GeneralName(GeneralName.dNSName, dns));
        }
        for (String ip : ipAddresses) {
            try {
                // getByName on a literal address parses it and never asks DNS
                if (!ip.matches("[0-9.]+|[0-9a-fA-F:.]*:[0-9a-fA-F:.]*")) {
                    throw new UnknownHostException(ip);
                }
                names.add(new GeneralName(GeneralName.iPAddress,
                        new org.bouncycastle.asn1.DEROctetString(InetAddress.getByName(ip).getAddress())));
            } catch (UnknownHostException e) {
                throw new InvalidWebhookException("operator.webhook.certificate.ip-addresses holds '" + ip
                        + "', which is not an IP address");
            }
        }
        return new GeneralNames(names.toArray(GeneralName[]::new));
    }

    private X509v3CertificateBuilder builder(X500Principal issuer, X500Principal subject, KeyPair keys, Instant now) {
        return new JcaX509v3CertificateBuilder(issuer, new BigInteger(127, RANDOM), Date.from(now.minus(BACKDATE)),
                Date.from(now.plus(validity)), subject, keys.getPublic());
    }

    private static X509Certificate sign(X509v3CertificateBuilder builder, KeyPair signer)
            throws GeneralSecurityException, OperatorCreationException {
        return new JcaX509CertificateConverter().getCertificate(
                builder.build(new JcaContentSignerBuilder("SHA256withECDSA").build(signer.getPrivate())));
    }

    private static KeyPair keyPair() throws GeneralSecurityException {
        KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
        generator.initialize(new ECGenParameterSpec("secp256r1"), RANDOM);
        return generator.generateKeyPair();
    }
}
