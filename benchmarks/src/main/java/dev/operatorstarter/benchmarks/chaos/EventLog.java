package dev.operatorstarter.benchmarks.chaos;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The driver's view of a subject's events file: reads what the subject appended since the last
 * {@link #refresh()} (complete lines only) and answers the questions a trial asks. Not
 * thread-safe: the driver's thread uses it.
 */
final class EventLog {

    private final Path file;
    private final List<InformerEvent> events = new ArrayList<>();
    private final Map<String, InformerEvent> lastByName = new HashMap<>();
    private long offset;
    private byte[] partial = new byte[0];

    EventLog(Path file) {
        this.file = file;
    }

    /** Reads the lines appended since the last call. */
    EventLog refresh() {
        if (!Files.exists(file)) {
            return this;
        }
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
            long size = channel.size();
            if (size <= offset) {
                return this;
            }
            ByteBuffer buffer = ByteBuffer.allocate(Math.toIntExact(size - offset));
            while (buffer.hasRemaining() && channel.read(buffer, offset + buffer.position()) > 0) {
                // read to the end as it was
            }
            offset += buffer.position();
            byte[] read = new byte[partial.length + buffer.position()];
            System.arraycopy(partial, 0, read, 0, partial.length);
            System.arraycopy(buffer.array(), 0, read, partial.length, buffer.position());
            int lineStart = 0;
            for (int i = 0; i < read.length; i++) {
                if (read[i] == '\n') {
                    add(InformerEvent.parse(new String(read, lineStart, i - lineStart, StandardCharsets.UTF_8)));
                    lineStart = i + 1;
                }
            }
            partial = Arrays.copyOfRange(read, lineStart, read.length);
        } catch (IOException e) {
            throw new UncheckedIOException("reading " + file, e);
        }
        return this;
    }

    /** Adds one event as if read from the file. */
    void add(InformerEvent event) {
        events.add(event);
        lastByName.put(event.name(), event);
    }

    /**
     * The first event received at or after {@code sinceMillis} that carries {@code resourceVersion}
     * or a later one.
     */
    Optional<InformerEvent> firstAtOrAfter(long resourceVersion, long sinceMillis) {
        for (int i = firstIndexAtOrAfter(sinceMillis); i < events.size(); i++) {
            if (events.get(i).resourceVersion() >= resourceVersion) {
                return Optional.of(events.get(i));
            }
        }
        return Optional.empty();
    }

    /** One handler thread appends the file, so the times never decrease: search from the end. */
    private int firstIndexAtOrAfter(long millis) {
        int i = events.size();
        while (i > 0 && events.get(i - 1).epochMillis() >= millis) {
            i--;
        }
        return i;
    }

    /** The last event of every name the subject ever heard of. */
    Map<String, InformerEvent> lastByName() {
        return Map.copyOf(lastByName);
    }

    /** How many deletes with an unknown final state arrived in [{@code fromMillis}, {@code toMillis}]. */
    long tombstonesBetween(long fromMillis, long toMillis) {
        return events.subList(firstIndexAtOrAfter(fromMillis), events.size()).stream()
                .filter(e -> e.tombstone() && e.epochMillis() <= toMillis).count();
    }

    /** Forgets which names were heard of (a new informer starts from the server's state); keeps the events. */
    void forgetNames() {
        lastByName.clear();
    }

    /** How many events arrived so far. */
    int size() {
        return events.size();
    }
}
