package dev.operatorstarter;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A process under test in a JVM of its own (the multi-JVM chaos tests'): a {@code main} class of
 * the test classpath, started on this JVM's {@code java}, small and quick to start, its output
 * appended to a log file; and the signals the tests send it.
 */
public final class ChildJvm {

    /** Quick to start (no optimizing compiler), few threads, a small heap. */
    private static final List<String> OPTIONS = List.of("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Xmx128m");

    private ChildJvm() {
    }

    /** Starts {@code main} with {@code args}, standard output and error appended to {@code log}. */
    public static Process start(Class<?> main, Path log, String... args) throws IOException {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(OPTIONS);
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), main.getName()));
        command.addAll(List.of(args));
        return new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
    }

    /** Sends {@code signal} ({@code STOP}, {@code CONT}, ...) to process {@code pid} with {@code kill}. */
    public static void signal(String signal, long pid) {
        try {
            new ProcessBuilder("kill", "-" + signal, Long.toString(pid)).start().waitFor(10, TimeUnit.SECONDS);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
