package dev.operatorstarter.autoconfigure.webhook;

import static org.assertj.core.api.Assertions.assertThat;

import dev.operatorstarter.testing.FakeTimeSource;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class CaBundleTest {

    private static final Duration YEAR = Duration.ofDays(365);

    private final FakeTimeSource clock = new FakeTimeSource();

    @Test
    void aBundleWithoutTheCaGetsItFirstAndKeepsTheValidCertificatesItHeld() {
        String other = ca();
        String ca = ca();

        CaBundle.Merge merge = CaBundle.merge(ca, other, clock.now());

        assertThat(certificates(merge.pem())).containsExactly(certificate(ca), certificate(other));
        assertThat(merge.dropped()).isEmpty();
        assertThat(certificates(CaBundle.merge(ca, null, clock.now()).pem())).containsExactly(certificate(ca));
        assertThat(certificates(CaBundle.merge(ca, "", clock.now()).pem())).containsExactly(certificate(ca));
    }

    @Test
    void aBundleThatHoldsTheCaAndNothingToDropIsLeftAsItIsWhateverItsOrder() {
        String other = ca();
        String ca = ca();

        assertThat(CaBundle.merge(ca, other + ca, clock.now()).changes()).isFalse();
        assertThat(CaBundle.merge(ca, ca, clock.now()).changes()).isFalse();
    }

    @Test
    void twoReplicasMergingInTurnKeepBothCasAndStopWriting() {
        String first = ca();
        String second = ca();

        String afterFirst = CaBundle.merge(first, null, clock.now()).pem();
        String afterSecond = CaBundle.merge(second, afterFirst, clock.now()).pem();

        assertThat(certificates(afterSecond)).containsExactly(certificate(second), certificate(first));
        assertThat(CaBundle.merge(first, afterSecond, clock.now()).changes()).isFalse();
        assertThat(CaBundle.merge(second, afterSecond, clock.now()).changes()).isFalse();
    }

    @Test
    void duringARotationBothTheNewAndTheServedCaComeFirst() {
        String old = ca();
        String other = ca();
        String fresh = ca();

        assertThat(certificates(CaBundle.merge(fresh + old, other + old, clock.now()).pem()))
                .containsExactly(certificate(fresh), certificate(old), certificate(other));
    }

    @Test
    void expiredCertificatesAndDuplicatesAreDropped() {
        String expiring = ca(Duration.ofDays(1));
        String valid = ca();
        String ca = ca();
        clock.advance(Duration.ofDays(2));

        CaBundle.Merge merge = CaBundle.merge(ca, expiring + valid + valid + ca, clock.now());

        assertThat(certificates(merge.pem())).containsExactly(certificate(ca), certificate(valid));
        assertThat(merge.dropped()).as("nothing unreadable").isEmpty();
        assertThat(CaBundle.merge(ca, ca + valid + valid, clock.now()).changes()).as("a duplicate alone").isTrue();
    }

    @Test
    void atMostEightCertificatesAreKeptTheNewestFirst() {
        List<String> others = new ArrayList<>();
        IntStream.range(0, 10).forEach(i -> {
            others.add(ca());
            clock.advance(Duration.ofMinutes(1)); // each made later than the one before
        });
        String ca = ca();

        CaBundle.Merge merge = CaBundle.merge(ca, String.join("", others), clock.now());

        List<X509Certificate> kept = certificates(merge.pem());
        assertThat(kept).hasSize(CaBundle.MAX_CERTIFICATES).first().isEqualTo(certificate(ca));
        assertThat(kept.subList(1, kept.size())).containsExactly(IntStream.of(9, 8, 7, 6, 5, 4, 3)
                .mapToObj(i -> certificate(others.get(i))).toArray(X509Certificate[]::new));
    }

    @Test
    void whatIsNotAReadableCertificateIsDroppedAndDescribedWithoutItsContent() {
        String valid = ca();
        String ca = ca();
        String garbage = "secret-looking text\n-----BEGIN PRIVATE KEY-----\nc2VjcmV0\n-----END PRIVATE KEY-----\n"
                + "-----BEGIN CERTIFICATE-----\nbm90IGEgY2VydGlmaWNhdGU=\n-----END CERTIFICATE-----\n" + valid;

        CaBundle.Merge merge = CaBundle.merge(ca, garbage, clock.now());

        assertThat(certificates(merge.pem())).containsExactly(certificate(ca), certificate(valid));
        assertThat(merge.dropped()).containsExactly("a PEM block of type PRIVATE KEY, not CERTIFICATE",
                "a CERTIFICATE block that does not parse (CertificateException)", "19 characters outside any PEM block");
        assertThat(String.join(" ", merge.dropped())).doesNotContain("secret", "c2VjcmV0");
    }

    /** A new CA (PEM) valid for a year from the clock's now. */
    private String ca() {
        return ca(YEAR);
    }

    private String ca(Duration validity) {
        return new GeneratedCertificate(List.of("localhost"), List.of(), validity, clock).load().caPem();
    }

    static X509Certificate certificate(String pem) {
        return certificates(pem).get(0);
    }

    static List<X509Certificate> certificates(String pem) {
        List<String> unreadable = new ArrayList<>();
        List<X509Certificate> certificates = CaBundle.certificates(pem, unreadable);
        assertThat(unreadable).as("what the test parses is readable").isEmpty();
        return certificates;
    }
}
