package dev.operatorstarter.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class JdkTest {

    @Test
    void theReleaseFileGivesVersionAndImplementor() {
        String release = """
                IMPLEMENTOR="Eclipse Adoptium"
                IMPLEMENTOR_VERSION="Temurin-25.0.3+9"
                JAVA_VERSION="25.0.3"
                JAVA_VERSION_DATE="2026-04-21"
                """;

        Jdk jdk = Jdk.parse(Path.of("/jdk"), release).orElseThrow();

        assertThat(jdk.version()).isEqualTo("25.0.3");
        assertThat(jdk.feature()).isEqualTo(25);
        assertThat(jdk.label()).isEqualTo("25.0.3 (Eclipse Adoptium)");
        assertThat(jdk.java()).isEqualTo(Path.of("/jdk/bin/java"));
    }

    @ParameterizedTest
    @CsvSource({"17.0.15, 17", "25, 25", "1.8.0_402, 8", "26-ea, 26"})
    void theFeatureReleaseIsTheVersionsFirstNumber(String version, int feature) {
        assertThat(new Jdk(Path.of("/jdk"), version, "").feature()).isEqualTo(feature);
    }

    @Test
    void aReleaseFileWithoutVersionIsNoJdk() {
        assertThat(Jdk.parse(Path.of("/jdk"), "IMPLEMENTOR=\"Debian\"\n")).isEmpty();
    }

    @Test
    void theThisJvmsJdkIsFound() {
        assertThat(Jdk.current().version()).isEqualTo(System.getProperty("java.version"));
    }

    @Test
    void aNamedNewerJdkThatIsTooOldIsRefusedNamingTheVariable(@TempDir Path home) throws Exception {
        Files.createDirectories(home.resolve("bin"));
        Files.copy(Jdk.current().java(), home.resolve("bin/java"));
        Files.writeString(home.resolve("release"), "JAVA_VERSION=\"17.0.15\"\n");

        assertThatIllegalStateException().isThrownBy(() -> Jdk.newer(25, Map.of(Jdk.NEWER_JDK_VARIABLE, home.toString())))
                .withMessageContaining(Jdk.NEWER_JDK_VARIABLE).withMessageContaining("17.0.15");
    }
}
