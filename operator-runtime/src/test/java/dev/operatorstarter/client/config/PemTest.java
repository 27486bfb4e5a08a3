package dev.operatorstarter.client.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.security.PrivateKey;
import java.time.Duration;
import java.util.Arrays;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class PemTest {

    /** Far above the microseconds a malformed key takes, for a loaded machine; only a loop would reach it. */
    private static final Duration NO_HANG = Duration.ofSeconds(20);

    private static byte[] ecPem(String hex) {
        return PemKeys.pem("EC PRIVATE KEY", HexFormat.of().parseHex(hex));
    }

    private static PrivateKey read(byte[] pem) {
        return assertTimeoutPreemptively(NO_HANG, () -> Pem.privateKey(pem, "the test's key"));
    }

    @Test
    void readsPkcs8RsaEcAndEd25519KeysAndTheTraditionalRsaAndEcForms() {
        PrivateKey rsa = PemKeys.rsa();
        PrivateKey ec = PemKeys.ec();
        PrivateKey ed25519 = PemKeys.ed25519();
        assertThat(read(PemKeys.pem("PRIVATE KEY", rsa.getEncoded())).getEncoded()).isEqualTo(rsa.getEncoded());
        assertThat(read(PemKeys.pem("RSA PRIVATE KEY", PemKeys.pkcs1(rsa))).getEncoded()).isEqualTo(rsa.getEncoded());
        assertThat(read(PemKeys.pem("PRIVATE KEY", ec.getEncoded())).getEncoded()).isEqualTo(ec.getEncoded());
        assertThat(read(PemKeys.pem("EC PRIVATE KEY", PemKeys.sec1(ec))).getAlgorithm()).isEqualTo("EC");
        assertThat(read(PemKeys.pem("PRIVATE KEY", ed25519.getEncoded())).getEncoded())
                .isEqualTo(ed25519.getEncoded());
    }

    @Test
    void anEcKeyWhoseFourByteLengthOverflowsToANegativeNumberFailsAtOnceNamingTheOffset() {
        // SEQUENCE(8) { OCTET STRING(0), INTEGER with length 0xFFFFFFF8 }: as an int, -8, which
        // once sent the reader back to an earlier element for ever
        assertThatThrownBy(() -> read(ecPem("3008040002" + "84FFFFFFF8")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("the test's key holds a malformed private key: an element declares 4294967288 bytes but "
                        + "only 0 remain (at byte offset 4 of its DER encoding)");
    }

    @ParameterizedTest
    @ValueSource(strings = {"84FFFFFFFF", "8480000000", "84FFFFFF00", "84F0000000"})
    void lengthsThatWouldBeNegativeAsAnIntAreRejected(String length) {
        assertThatThrownBy(() -> read(ecPem("3008040002" + length)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("malformed private key").hasMessageContaining("at byte offset 4");
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "3008040002820100", // 256 bytes declared, none left
        "300804000205000000", // 5 bytes declared, 3 left
        "30820100040002", // the sequence declares 256 bytes, 5 remain
        "3004040002050000000000", // the element runs past the end of its sequence, though not of the key
    })
    void lengthsLongerThanWhatIsLeftAreRejected(String hex) {
        assertThatThrownBy(() -> read(ecPem(hex)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("malformed private key").hasMessageContaining("remain");
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "3080040002010000", // indefinite length
        "3008040002850000000001", // a five-byte length
        "30", // no length at all
        "300304000283", // a length cut short
        "3004040002", // a header cut short inside the sequence
    })
    void headersDerDoesNotAllowOrThatAreCutShortAreRejected(String hex) {
        assertThatThrownBy(() -> read(ecPem(hex)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("malformed private key").hasMessageContaining("at byte offset");
    }

    @Test
    void everyTruncationOfAValidKeyFailsWithAnIllegalArgumentException() {
        byte[] sec1 = PemKeys.sec1(PemKeys.ec());
        byte[] pkcs1 = PemKeys.pkcs1(PemKeys.rsa());
        for (int length = 0; length < sec1.length; length++) {
            byte[] cut = Arrays.copyOf(sec1, length);
            assertThatThrownBy(() -> read(PemKeys.pem("EC PRIVATE KEY", cut)))
                    .as("SEC1 cut to %d bytes", length).isInstanceOf(IllegalArgumentException.class);
        }
        for (int length = 0; length < pkcs1.length; length += 7) {
            byte[] cut = Arrays.copyOf(pkcs1, length);
            assertThatThrownBy(() -> read(PemKeys.pem("RSA PRIVATE KEY", cut)))
                    .as("PKCS#1 cut to %d bytes", length).isInstanceOf(IllegalArgumentException.class);
        }
    }

    @Test
    void anEcKeyWithoutItsCurveSaysSo() {
        assertThatThrownBy(() -> read(ecPem("3006020101040100")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("the test's key is an EC private key without its curve parameters");
    }
}
