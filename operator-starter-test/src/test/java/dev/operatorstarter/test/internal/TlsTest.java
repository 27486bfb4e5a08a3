package dev.operatorstarter.test.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.StringWriter;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;
import org.junit.jupiter.api.Test;

class TlsTest {

    /** A throw-away SEC1 key as OpenSSL and Go write it (with the curve named in the key), made for this test. */
    private static final String SEC1_EC_KEY = """
            -----BEGIN EC PRIVATE KEY-----
            MHcCAQEEILaJ5pAR3Zhkl0EtiCa3F5QrI0g4TaiaLO86gy+vZWZsoAoGCCqGSM49
            AwEHoUQDQgAEZpAqVnlRDJpxF4m5O7jB6UORhxzvJZDaMtzGIbBOrSg0/hwOd1Ls
            0Mfo7HS6ExKK06MmkK9PHQi+JuX5KSCI8A==
            -----END EC PRIVATE KEY-----
            """;

    @Test
    void readsTheTraditionalRsaAndEcKeyFormatsThatKubeconfigsCarry() throws Exception {
        KeyPairGenerator rsa = KeyPairGenerator.getInstance("RSA");
        rsa.initialize(2048);

        String pkcs1 = traditionalPem(rsa.generateKeyPair());
        String sec1 = SEC1_EC_KEY;

        assertThat(pkcs1).startsWith("-----BEGIN RSA PRIVATE KEY-----");
        assertThat(sec1).startsWith("-----BEGIN EC PRIVATE KEY-----");
        assertThat(Tls.privateKey(pkcs1, "rsa").getAlgorithm()).isEqualTo("RSA");
        assertThat(Tls.privateKey(sec1, "ec").getAlgorithm()).isIn("EC", "ECDSA");
    }

    @Test
    void textWithoutAKeyOrCertificateIsRejectedNamingItsSource() {
        assertThatThrownBy(() -> Tls.privateKey("not a key", "client-key-data of user admin"))
                .hasMessageStartingWith("client-key-data of user admin holds no unencrypted PEM private key");
        assertThatThrownBy(() -> Tls.certificates("", "the certificate authority"))
                .hasMessageStartingWith("the certificate authority holds no PEM certificate");
    }

    private static String traditionalPem(KeyPair pair) throws Exception {
        StringWriter out = new StringWriter();
        try (JcaPEMWriter writer = new JcaPEMWriter(out)) {
            writer.writeObject(pair); // a KeyPair is written in the traditional (PKCS#1 / SEC1) form
        }
        return out.toString();
    }
}
