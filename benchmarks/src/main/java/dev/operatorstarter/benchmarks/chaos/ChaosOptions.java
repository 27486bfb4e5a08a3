package dev.operatorstarter.benchmarks.chaos;

import dev.operatorstarter.benchmarks.Subject;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * How an informer chaos run is sized. Build with {@link #builder()}.
 *
 * @param trials trials per scenario; default 1
 * @param subjects the informers measured side by side; default ours only
 * @param faultTime how long each fault lasts (a storm: 1 s more); default 1 s
 * @param recoveryTimeout how long a trial waits, after the fault, for each subject's first new
 *     event; default 30 s (the reflector's longest backoff)
 * @param convergeTimeout how long a trial waits, after the churn stops, for each subject's cache to
 *     equal a fresh list; default 30 s
 * @param keys the churn's pool of names; default 50
 * @param writesPerSecond the churn's rate; default 20
 * @param directory where events files, logs and the report go; default {@code target/chaos}
 */
record ChaosOptions(int trials, List<Subject> subjects, Duration faultTime, Duration recoveryTimeout,
        Duration convergeTimeout, int keys, int writesPerSecond, Path directory) {

    /** System property: trials per scenario. */
    static final String TRIALS = "chaos.trials";
    /** System property: the subjects, comma-separated ({@code ours,fabric8,official}). */
    static final String SUBJECTS = "chaos.subjects";

    ChaosOptions {
        if (trials < 1) {
            throw new IllegalArgumentException("trials must be at least 1, was " + trials);
        }
        subjects = List.copyOf(subjects);
        if (subjects.isEmpty() || subjects.contains(Subject.OURS_NO_TRANSFORM)
                || subjects.stream().anyMatch(Subject::controllerRuntime)) {
            throw new IllegalArgumentException("subjects must be some of ours, fabric8, official; was " + subjects);
        }
        positive(faultTime, "faultTime");
        positive(recoveryTimeout, "recoveryTimeout");
        positive(convergeTimeout, "convergeTimeout");
        if (keys < 1) {
            throw new IllegalArgumentException("keys must be at least 1, was " + keys);
        }
        if (writesPerSecond < 1) {
            throw new IllegalArgumentException("writesPerSecond must be at least 1, was " + writesPerSecond);
        }
        Objects.requireNonNull(directory, "directory");
    }

    private static void positive(Duration value, String name) {
        Objects.requireNonNull(value, name);
        if (value.isNegative() || value.isZero()) {
            throw new IllegalArgumentException(name + " must be positive, was " + value);
        }
    }

    static Builder builder() {
        return new Builder();
    }

    /**
     * The defaults, with trials and subjects from the system properties {@value #TRIALS} and
     * {@value #SUBJECTS} when set (the {@code chaos} Maven profile sets both).
     */
    static ChaosOptions fromSystemProperties() {
        Builder builder = builder();
        String trials = System.getProperty(TRIALS, "").strip();
        if (!trials.isEmpty()) {
            builder.trials(Integer.parseInt(trials));
        }
        String subjects = System.getProperty(SUBJECTS, "").strip();
        if (!subjects.isEmpty()) {
            builder.subjects(Arrays.stream(subjects.split(",")).map(String::strip).filter(s -> !s.isEmpty())
                    .map(Subject::parse).toList());
        }
        return builder.build();
    }

    /** Builds {@link ChaosOptions}; see the record for the defaults. */
    static final class Builder {
        private int trials = 1;
        private List<Subject> subjects = List.of(Subject.OURS);
        private Duration faultTime = Duration.ofSeconds(1);
        private Duration recoveryTimeout = Duration.ofSeconds(30);
        private Duration convergeTimeout = Duration.ofSeconds(30);
        private int keys = 50;
        private int writesPerSecond = 20;
        private Path directory = Path.of("target", "chaos");

        private Builder() {
        }

        Builder trials(int trials) {
            this.trials = trials;
            return this;
        }

        Builder subjects(List<Subject> subjects) {
            this.subjects = subjects;
            return this;
        }

        Builder faultTime(Duration faultTime) {
            this.faultTime = faultTime;
            return this;
        }

        Builder recoveryTimeout(Duration recoveryTimeout) {
            this.recoveryTimeout = recoveryTimeout;
            return this;
        }

        Builder convergeTimeout(Duration convergeTimeout) {
            this.convergeTimeout = convergeTimeout;
            return this;
        }

        Builder keys(int keys) {
            this.keys = keys;
            return this;
        }

        Builder writesPerSecond(int writesPerSecond) {
            this.writesPerSecond = writesPerSecond;
            return this;
        }

        Builder directory(Path directory) {
            this.directory = directory;
            return this;
        }

        ChaosOptions build() {
            return new ChaosOptions(trials, subjects, faultTime, recoveryTimeout, convergeTimeout, keys, writesPerSecond,
                    directory);
        }
    }
}
