package dev.operatorstarter.client.config;

import java.io.StringWriter;
import java.math.BigInteger;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.spec.ECGenParameterSpec;
import java.time.Instant;
import java.util.Date;
import javax.security.auth.x500.X500Principal;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;
import org.bouncycastle.openssl.jcajce.JcaPKCS8Generator;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/** Self-signed certificates and keys in the PEM forms kubeconfigs hold. */
record TestCertificates(String certificatePem, String traditionalKeyPem, String pkcs8KeyPem) {

    static TestCertificates rsa(String name) {
        return create(name, "RSA");
    }

    static TestCertificates ec(String name) {
        return create(name, "EC");
    }

    private static TestCertificates create(String name, String algorithm) {
        try {
            KeyPairGenerator generator = KeyPairGenerator.getInstance(algorithm);
            if (algorithm.equals("EC")) {
                generator.initialize(new ECGenParameterSpec("secp256r1"));
            } else {
                generator.initialize(2048);
            }
            KeyPair keys = generator.generateKeyPair();
            X500Principal subject = new X500Principal("CN=" + name);
            var holder = new JcaX509v3CertificateBuilder(subject, BigInteger.valueOf(System.nanoTime()),
                    Date.from(Instant.now().minusSeconds(60)), Date.from(Instant.now().plusSeconds(86400)), subject,
                    keys.getPublic()).build(new JcaContentSignerBuilder(algorithm.equals("EC") ? "SHA256withECDSA"
                            : "SHA256withRSA").build(keys.getPrivate()));
            var certificate = new JcaX509CertificateConverter().getCertificate(holder);
            return new TestCertificates(pem(certificate), traditional(keys),
                    pem(new JcaPKCS8Generator(keys.getPrivate(), null).generate()));
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /** PKCS#1 for RSA; SEC1 with the curve parameters (as openssl writes it) for EC. */
    private static String traditional(KeyPair keys) throws java.io.IOException {
        if (!keys.getPrivate().getAlgorithm().equals("EC")) {
            return pem(keys.getPrivate());
        }
        var info = org.bouncycastle.asn1.pkcs.PrivateKeyInfo.getInstance(keys.getPrivate().getEncoded());
        var inner = org.bouncycastle.asn1.sec.ECPrivateKey.getInstance(info.parsePrivateKey());
        var withCurve = new org.bouncycastle.asn1.sec.ECPrivateKey(256, inner.getKey(),
                info.getPrivateKeyAlgorithm().getParameters());
        return pem(new org.bouncycastle.util.io.pem.PemObject("EC PRIVATE KEY", withCurve.getEncoded()));
    }

    private static String pem(Object object) throws java.io.IOException {
        StringWriter out = new StringWriter();
        try (JcaPEMWriter writer = new JcaPEMWriter(out)) {
            writer.writeObject(object);
        }
        return out.toString();
    }
}
