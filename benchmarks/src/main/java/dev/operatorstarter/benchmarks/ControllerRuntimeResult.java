package dev.operatorstarter.benchmarks;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;

/**
 * One line of controller-runtime's benchmark program ({@link ControllerRuntime}): a JSON object
 * with a {@code scenario} field and the scenario's figures, for example
 * {@code {"scenario":"informer","syncMillis":212,"retainedBytes":2640000,"objects":300,...}}.
 *
 * @param line the line as printed, for messages
 * @param json the object
 */
record ControllerRuntimeResult(String line, JsonNode json) {

    private static final ObjectMapper MAPPER = JsonMapper.builder().build();

    /** Reads one line; a line that is not a JSON object with a {@code scenario} gets an error that quotes it. */
    static ControllerRuntimeResult parse(String line) {
        JsonNode json;
        try {
            json = MAPPER.readTree(line);
        } catch (JacksonException e) {
            throw new IllegalArgumentException("controller-runtime's program printed a line that is not JSON: " + line, e);
        }
        if (json == null || !json.isObject() || !json.path("scenario").isString()) {
            throw new IllegalArgumentException("controller-runtime's program printed a line without a scenario: " + line);
        }
        return new ControllerRuntimeResult(line, json);
    }

    /** The result lines among a run's standard output: those that start with <code>{</code>; other lines are ignored. */
    static List<ControllerRuntimeResult> parseAll(List<String> output) {
        return output.stream().map(String::strip).filter(line -> line.startsWith("{")).map(ControllerRuntimeResult::parse)
                .toList();
    }

    String scenario() {
        return json.get("scenario").asString();
    }

    /** {@code event} of an operator line, if it has one. */
    Optional<String> event() {
        JsonNode event = json.get("event");
        return event != null && event.isString() ? Optional.of(event.asString()) : Optional.empty();
    }

    /** A whole-number field; missing or of another type: an error naming the field and the line. */
    long number(String field) {
        JsonNode value = json.get(field);
        if (value == null || !value.isIntegralNumber()) {
            throw new IllegalArgumentException("controller-runtime's " + scenario() + " result has no whole number "
                    + field + ": " + line);
        }
        return value.asLong();
    }

    /** Whether the line has a numeric {@code field}. */
    boolean has(String field) {
        JsonNode value = json.get(field);
        return value != null && value.isNumber();
    }

    /** A numeric field; missing or not a number: an error naming the field and the line. */
    double decimal(String field) {
        JsonNode value = json.get(field);
        if (value == null || !value.isNumber()) {
            throw new IllegalArgumentException("controller-runtime's " + scenario() + " result has no number " + field
                    + ": " + line);
        }
        return value.asDouble();
    }

    /** A text field, or empty. */
    String text(String field) {
        JsonNode value = json.get(field);
        return value != null && value.isString() ? value.asString() : "";
    }

    /**
     * Runs the program once with {@code flags} and returns its one result line of {@code scenario};
     * fails with the program's output if it exits non-zero, prints no such line or outlives {@code timeout}.
     */
    static ControllerRuntimeResult run(String scenario, Duration timeout, List<String> flags)
            throws IOException, InterruptedException {
        return run(ControllerRuntime.binary(), scenario, timeout, flags);
    }

    /** As {@link #run(String, Duration, List)}, with the program already at hand ({@link ControllerRuntime#binary()}). */
    static ControllerRuntimeResult run(Path program, String scenario, Duration timeout, List<String> flags)
            throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(program.toString());
        command.add("-scenario=" + scenario);
        command.addAll(flags);
        Path errors = Files.createTempFile("controller-runtime-" + scenario + "-", ".log");
        try {
            // standard output holds the result lines only; its logs go to standard error
            Process process = new ProcessBuilder(command).redirectError(errors.toFile()).start();
            List<String> lines = new ArrayList<>();
            Thread reader = new Thread(() -> {
                try (BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(),
                        StandardCharsets.UTF_8))) {
                    for (String line = out.readLine(); line != null; line = out.readLine()) {
                        synchronized (lines) {
                            lines.add(line);
                        }
                    }
                } catch (IOException e) {
                    // the process ended; what was read is reported
                }
            }, "controller-runtime-output");
            reader.start();
            if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                process.destroyForcibly();
                process.waitFor(10, TimeUnit.SECONDS);
            }
            reader.join(TimeUnit.SECONDS.toMillis(10));
            List<String> output;
            synchronized (lines) {
                output = List.copyOf(lines);
            }
            if (process.isAlive() || process.exitValue() != 0) {
                throw new IllegalStateException("controller-runtime's " + scenario + " run " + (process.isAlive()
                        ? "did not end within " + timeout : "exited with " + process.exitValue()) + ": "
                        + String.join(" ", command) + "\n" + tail(errors));
            }
            return parseAll(output).stream().filter(result -> result.scenario().equals(scenario))
                    .reduce((first, second) -> second)
                    .orElseThrow(() -> new IllegalStateException("controller-runtime's " + scenario + " run printed no "
                            + "result: " + String.join(" ", command) + "\n" + String.join("\n", output)));
        } finally {
            Files.deleteIfExists(errors);
        }
    }

    /** The last 40 lines of a log, for a message. */
    static String tail(Path log) throws IOException {
        List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
        return String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size()));
    }
}
