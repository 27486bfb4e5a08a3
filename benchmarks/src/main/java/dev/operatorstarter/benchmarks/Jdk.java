package dev.operatorstarter.benchmarks;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * A JDK installation, as its {@code release} file describes it.
 *
 * @param home the Java home
 * @param version {@code JAVA_VERSION}, for example {@code 25.0.3}
 * @param implementor {@code IMPLEMENTOR}, for example {@code Eclipse Adoptium}; empty if not given
 */
record Jdk(Path home, String version, String implementor) {

    /** Where a JDK of feature release 24 or later can be named for the AOT cache: its Java home. */
    static final String NEWER_JDK_VARIABLE = "BENCHMARKS_NEWER_JDK";
    private static final Path JVM_FOLDER = Path.of("/usr/lib/jvm");
    private static final Pattern FIELD = Pattern.compile("^(\\w+)=\"?([^\"]*)\"?$", Pattern.MULTILINE);

    /** The JDK this JVM runs on. */
    static Jdk current() {
        return of(Path.of(System.getProperty("java.home")))
                .orElseThrow(() -> new IllegalStateException("no release file in " + System.getProperty("java.home")));
    }

    /** The JDK at {@code home}, if it has a {@code release} file with a version. */
    static Optional<Jdk> of(Path home) {
        Path release = home.resolve("release");
        if (!Files.isRegularFile(release) || !Files.isExecutable(home.resolve("bin").resolve("java"))) {
            return Optional.empty();
        }
        try {
            return parse(home, Files.readString(release));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + release, e);
        }
    }

    static Optional<Jdk> parse(Path home, String release) {
        Map<String, String> fields = new HashMap<>();
        Matcher field = FIELD.matcher(release);
        while (field.find()) {
            fields.put(field.group(1), field.group(2));
        }
        String version = fields.get("JAVA_VERSION");
        return version == null || version.isBlank() ? Optional.empty()
                : Optional.of(new Jdk(home, version, fields.getOrDefault("IMPLEMENTOR", "")));
    }

    /**
     * A JDK of feature release {@code minimum} or later: the one {@link #NEWER_JDK_VARIABLE} names,
     * else the newest under {@code /usr/lib/jvm}.
     */
    static Optional<Jdk> newer(int minimum, Map<String, String> environment) {
        String named = environment.get(NEWER_JDK_VARIABLE);
        if (named != null && !named.isBlank()) {
            Jdk jdk = of(Path.of(named)).orElseThrow(() -> new IllegalStateException(NEWER_JDK_VARIABLE + "=" + named
                    + " is not a Java home (no release file or bin/java)"));
            if (jdk.feature() < minimum) {
                throw new IllegalStateException(NEWER_JDK_VARIABLE + "=" + named + " is JDK " + jdk.version()
                        + "; the AOT cache needs " + minimum + " or later");
            }
            return Optional.of(jdk);
        }
        if (!Files.isDirectory(JVM_FOLDER)) {
            return Optional.empty();
        }
        try (Stream<Path> homes = Files.list(JVM_FOLDER)) {
            List<Jdk> found = homes.filter(Files::isDirectory).filter(home -> !Files.isSymbolicLink(home))
                    .map(Jdk::of).flatMap(Optional::stream).filter(jdk -> jdk.feature() >= minimum).toList();
            return found.stream().max(Comparator.comparingInt(Jdk::feature));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list " + JVM_FOLDER, e);
        }
    }

    /** The feature release: 17 for {@code 17.0.15}, 25 for {@code 25.0.3}, 8 for {@code 1.8.0_402}. */
    int feature() {
        String[] parts = version.split("[._+-]");
        int first = Integer.parseInt(parts[0]);
        return first == 1 && parts.length > 1 ? Integer.parseInt(parts[1]) : first;
    }

    Path java() {
        return home.resolve("bin").resolve("java");
    }

    /** {@code 25.0.3 (Eclipse Adoptium)}. */
    String label() {
        return implementor.isEmpty() ? version : version + " (" + implementor + ")";
    }
}
