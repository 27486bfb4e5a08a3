package dev.operatorstarter.autoconfigure.webhook;

import static org.assertj.core.api.Assertions.assertThat;

import dev.operatorstarter.time.TimeSource;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class RotatingServerKeyManagerTest {

    private final ServingKey first = key();
    private final ServingKey second = key();
    private final RotatingServerKeyManager keys = new RotatingServerKeyManager(first);

    @Test
    void aStagedKeyIsNotPresentedUntilPromoted() {
        keys.stage(second);
        String alias = keys.chooseEngineServerAlias("EC", null, null);

        assertThat(keys.current()).isSameAs(first);
        assertThat(keys.staged()).isSameAs(second);
        assertThat(keys.getCertificateChain(alias)).containsExactly(first.certificate());
        assertThat(keys.getPrivateKey(alias)).isEqualTo(first.key());

        assertThat(keys.promote()).isSameAs(second);
        String promoted = keys.chooseEngineServerAlias("EC", null, null);

        assertThat(keys.current()).isSameAs(second);
        assertThat(keys.staged()).isNull();
        assertThat(keys.getCertificateChain(promoted)).containsExactly(second.certificate());
        assertThat(keys.getCertificateChain(alias)).as("a handshake that chose the old alias still gets a pair")
                .containsExactly(first.certificate());
        assertThat(keys.getPrivateKey(alias)).isEqualTo(first.key());
    }

    @Test
    void promotingWithNothingStagedChangesNothingAndUseForgetsTheStagedKey() {
        String alias = keys.chooseEngineServerAlias("EC", null, null);

        assertThat(keys.promote()).isNull();
        assertThat(keys.chooseEngineServerAlias("EC", null, null)).isEqualTo(alias);

        keys.stage(second);
        keys.use(first);
        assertThat(keys.staged()).isNull();
        keys.stage(second);
        keys.stage(null);
        assertThat(keys.staged()).isNull();
        assertThat(keys.current()).isSameAs(first);
    }

    private static ServingKey key() {
        return new GeneratedCertificate(List.of("localhost"), List.of("127.0.0.1"), Duration.ofDays(1),
                TimeSource.system()).load();
    }
}
