package dev.operatorstarter.autoconfigure.webhook;

import static org.assertj.core.api.Assertions.assertThat;

import dev.operatorstarter.testing.FakeTimeSource;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class GeneratedCertificateTest {

    private final FakeTimeSource clock = new FakeTimeSource();
    private final GeneratedCertificate source = new GeneratedCertificate(List.of("localhost"), List.of("127.0.0.1"),
            Duration.ofDays(30), clock);

    @Test
    void theCertificateIsMadeOnceAndValidForTheValidityFromNow() {
        ServingKey first = source.load();

        assertThat(source.load()).isSameAs(first);
        assertThat(first.notAfter()).isEqualTo(clock.now().plus(Duration.ofDays(30)));
        assertThat(first.certificate().getNotBefore().toInstant()).isBefore(clock.now());
        assertThat(CaBundleTest.certificate(first.caPem()).getSubjectX500Principal())
                .isEqualTo(first.certificate().getIssuerX500Principal());
    }

    @Test
    void aNewCaAndCertificateAreMadeOnceAThirdOfTheValidityIsLeft() {
        ServingKey first = source.load();

        clock.advance(Duration.ofDays(20).minusSeconds(1));
        ServingKey stillFirst = source.load();
        clock.advance(Duration.ofSeconds(1));
        ServingKey renewed = source.load();

        assertThat(stillFirst).isSameAs(first);
        assertThat(renewed.caPem()).isNotEqualTo(first.caPem());
        assertThat(renewed.certificate()).isNotEqualTo(first.certificate());
        assertThat(renewed.key()).isNotEqualTo(first.key());
        assertThat(renewed.notAfter()).isEqualTo(clock.now().plus(Duration.ofDays(30)));
        assertThat(source.load()).isSameAs(renewed);
    }
}
