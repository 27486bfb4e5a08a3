package dev.operatorstarter.benchmarks.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class EventLogTest {

    @TempDir
    Path folder;

    private void append(Path file, String text) throws IOException {
        Files.writeString(file, text, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
    }

    @Test
    void aRefreshReadsOnlyCompleteLinesAndTheRestOfALineOnALaterRefresh() throws IOException {
        Path file = folder.resolve("ours.events");
        EventLog log = new EventLog(file);
        append(file, "ADD key-01 10 false 100\nUPDATE key-01 1");

        assertThat(log.refresh().size()).isEqualTo(1);

        append(file, "2 false 200\n");

        assertThat(log.refresh().size()).isEqualTo(2);
        assertThat(log.lastByName().get("key-01"))
                .isEqualTo(new InformerEvent(InformerEvent.Type.UPDATE, "key-01", 12, false, 200));
    }

    @Test
    void aFileNotWrittenYetReadsAsNoEvents() {
        assertThat(new EventLog(folder.resolve("absent.events")).refresh().size()).isZero();
    }

    @Test
    void theFirstEventAfterAFaultIsTheFirstReceivedSinceThenCarryingTheVersionOrALaterOne() {
        EventLog log = new EventLog(folder.resolve("unused"));
        log.add(new InformerEvent(InformerEvent.Type.ADD, "key-01", 50, false, 100));
        log.add(new InformerEvent(InformerEvent.Type.UPDATE, "key-02", 40, false, 300)); // an older change, delivered late
        log.add(new InformerEvent(InformerEvent.Type.DELETE, "key-03", 55, false, 400));
        log.add(new InformerEvent(InformerEvent.Type.UPDATE, "key-04", 60, false, 500));

        assertThat(log.firstAtOrAfter(52, 200)).map(InformerEvent::name).hasValue("key-03");
        assertThat(log.firstAtOrAfter(50, 200)).map(InformerEvent::name).hasValue("key-03");
        assertThat(log.firstAtOrAfter(50, 0)).map(InformerEvent::name).hasValue("key-01");
        assertThat(log.firstAtOrAfter(61, 0)).isEmpty();
    }

    @Test
    void tombstonesAreCountedWithinTheTrialsTimeOnly() {
        EventLog log = new EventLog(folder.resolve("unused"));
        log.add(new InformerEvent(InformerEvent.Type.DELETE, "key-01", 50, true, 100));
        log.add(new InformerEvent(InformerEvent.Type.DELETE, "key-02", 51, false, 200));
        log.add(new InformerEvent(InformerEvent.Type.DELETE, "key-03", 52, true, 300));
        log.add(new InformerEvent(InformerEvent.Type.DELETE, "key-04", 53, true, 400));

        assertThat(log.tombstonesBetween(150, 350)).isEqualTo(1);
        assertThat(log.tombstonesBetween(0, 1000)).isEqualTo(3);
    }
}
