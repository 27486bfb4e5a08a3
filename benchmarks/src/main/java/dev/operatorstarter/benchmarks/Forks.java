package dev.operatorstarter.benchmarks;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Runs a main class of this module in a fresh JVM (same java, same classpath) and returns its RESULT
 * line; {@link #command} is that JVM's command line, for callers that keep the process running.
 */
final class Forks {

    /**
     * The environment variable with further options for every JVM forked through {@link #command}
     * (blank-separated), for an experiment such as {@code -XX:SoftRefLRUPolicyMSPerMB=0}; unset in
     * the published runs.
     */
    static final String OPTIONS_ENVIRONMENT = "BENCHMARKS_FORK_OPTIONS";

    private Forks() {
    }

    static String[] run(Class<?> main, String... args) throws IOException, InterruptedException {
        return run(List.of(), main, args);
    }

    /** As {@link #run(Class, String...)}, with more options for the JVM. */
    static String[] run(List<String> jvmOptions, Class<?> main, String... args) throws IOException, InterruptedException {
        return run(command(jvmOptions, main, args), main.getSimpleName() + " " + String.join(" ", args));
    }

    /** Runs {@code command} (a JVM that prints a RESULT line) and returns that line; {@code what} names it in errors. */
    static String[] run(List<String> command, String what) throws IOException, InterruptedException {
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String result = null;
        StringBuilder output = new StringBuilder();
        try (BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line = out.readLine(); line != null; line = out.readLine()) {
                if (line.startsWith("RESULT ")) {
                    result = line.substring("RESULT ".length());
                } else if (output.length() < 20_000) {
                    output.append(line).append('\n');
                }
            }
        }
        if (!process.waitFor(10, TimeUnit.MINUTES)) {
            process.destroyForcibly();
        }
        if (result == null) {
            throw new IllegalStateException(what + " printed no result (exit " + process.exitValue() + "):\n" + output);
        }
        return result.split(" ");
    }

    /**
     * The command that runs {@code main} in a fresh JVM: this JVM's java and classpath, {@code -Xmx2g
     * -XX:+UseG1GC} (every forked subject's heap settings), the options {@link #OPTIONS_ENVIRONMENT}
     * names, then {@code jvmOptions}.
     */
    static List<String> command(List<String> jvmOptions, Class<?> main, String... args) {
        List<String> command = new ArrayList<>();
        command.add(ProcessHandle.current().info().command().orElse("java"));
        command.add("-Xmx2g");
        command.add("-XX:+UseG1GC");
        String extra = System.getenv(OPTIONS_ENVIRONMENT);
        if (extra != null && !extra.isBlank()) {
            command.addAll(List.of(extra.trim().split("\\s+")));
        }
        command.addAll(jvmOptions);
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(main.getName());
        command.addAll(List.of(args));
        return command;
    }
}
