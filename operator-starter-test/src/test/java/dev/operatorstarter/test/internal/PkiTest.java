package dev.operatorstarter.test.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.security.cert.X509Certificate;
import java.util.List;
import org.junit.jupiter.api.Test;

class PkiTest {

    private final Pki pki = Pki.newAuthority("test-ca");

    @Test
    void theServingCertificateIsSignedByTheAuthorityAndNamesLoopback() throws Exception {
        Pki.Issued serving = pki.serving("kube-apiserver", List.of("localhost"), List.of("127.0.0.1"));
        X509Certificate certificate = serving.certificate();

        certificate.verify(pki.caCertificate().getPublicKey());
        assertThat(certificate.getSubjectAlternativeNames()).extracting(name -> (Object) name.get(1))
                .containsExactlyInAnyOrder((Object) "localhost", "127.0.0.1");
        // server auth, and client auth for etcd's gateway, which dials etcd with the serving certificate
        assertThat(certificate.getExtendedKeyUsage()).containsExactly("1.3.6.1.5.5.7.3.1", "1.3.6.1.5.5.7.3.2");
        assertThat(certificate.getBasicConstraints()).isEqualTo(-1);
    }

    @Test
    void aClientCertificateCarriesTheUserAsCommonNameAndTheGroupAsOrganisation() throws Exception {
        Pki.Issued admin = pki.client("admin", "system:masters");

        admin.certificate().verify(pki.caCertificate().getPublicKey());
        assertThat(admin.certificate().getSubjectX500Principal().getName()).isEqualTo("CN=admin,O=system:masters");
        assertThat(admin.certificate().getExtendedKeyUsage()).containsExactly("1.3.6.1.5.5.7.3.2");
    }

    @Test
    void keysAreWrittenAsPkcs8AndReadBack() {
        Pki.Issued admin = pki.client("admin", "system:masters");
        Pki.SigningKey serviceAccount = Pki.serviceAccountKeyPair();

        assertThat(admin.keyPem()).startsWith("-----BEGIN PRIVATE KEY-----");
        assertThat(serviceAccount.privatePem()).startsWith("-----BEGIN PRIVATE KEY-----");
        assertThat(serviceAccount.publicPem()).startsWith("-----BEGIN PUBLIC KEY-----");
        assertThat(Tls.privateKey(admin.keyPem(), "admin key").getAlgorithm()).isEqualTo("EC");
        assertThat(Tls.privateKey(serviceAccount.privatePem(), "sa key").getAlgorithm()).isEqualTo("RSA");
        assertThat(Tls.sslContext(pki.caPem(), admin.certificatePem(), admin.keyPem())).isNotNull();
    }

    @Test
    void keyMaterialNeverShowsInToString() {
        Pki.Issued admin = pki.client("admin", "system:masters");
        Pki.SigningKey serviceAccount = Pki.serviceAccountKeyPair();

        assertThat(admin.toString()).contains("CN=admin").doesNotContain("PRIVATE KEY");
        assertThat(serviceAccount.toString()).doesNotContain("PRIVATE KEY");
    }
}
