package dev.operatorstarter.autoconfigure.webhook;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.operatorstarter.time.TimeSource;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CertificateFilesTest {

    @TempDir
    Path folder;

    private final ServingKey first = generated();
    private final ServingKey second = generated();

    @Test
    void aCertificateWithTheCaThatSignedItIsLoadedWithThatCa() throws Exception {
        CertificateFiles files = write(first, first.caPem());

        ServingKey loaded = files.load();

        assertThat(loaded.certificate()).isEqualTo(first.certificate());
        assertThat(loaded.caPem()).isEqualTo(first.caPem());
    }

    @Test
    void aCertificateTheCaFileDidNotSignIsRefusedAsARotationReadHalfway() throws Exception {
        CertificateFiles files = write(first, second.caPem());

        assertThatThrownBy(files::load).isInstanceOf(InvalidWebhookException.class)
                .hasMessage("the certificate in " + folder.resolve("tls.crt") + " (CN=localhost) is not signed by a CA in "
                        + folder.resolve("ca.crt"));
        assertThat(write(first, second.caPem() + first.caPem()).load().certificate())
                .as("a CA file with the signer among others").isEqualTo(first.certificate());
    }

    private CertificateFiles write(ServingKey key, String caPem) throws Exception {
        WebhookAutoConfigurationTest.write(key, folder.resolve("tls.crt"), folder.resolve("tls.key"));
        Files.writeString(folder.resolve("ca.crt"), caPem);
        return new CertificateFiles(folder.resolve("tls.crt"), folder.resolve("tls.key"), folder.resolve("ca.crt"));
    }

    private static ServingKey generated() {
        return new GeneratedCertificate(List.of("localhost"), List.of("127.0.0.1"), Duration.ofDays(1),
                TimeSource.system()).load();
    }
}
