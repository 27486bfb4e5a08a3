package dev.operatorstarter.client.pod;

import dev.operatorstarter.internal.Durations;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * How to run a command in a container ({@link PodStreams#exec}) or attach to its main process
 * ({@link PodStreams#attach}, without a command): client-go's {@code PodExecOptions} plus a
 * time limit.
 *
 * @param command the command and its arguments, run without a shell; required for exec, empty for
 *     attach
 * @param container the container; default: the Pod's only or default container
 * @param stdin open stdin ({@link ExecSession#stdin()}); default false
 * @param stdout read stdout; default true
 * @param stderr read stderr; default true, and false with {@code tty} (a terminal merges it into stdout)
 * @param tty allocate a terminal, which {@link ExecSession#resize} sizes; default false
 * @param timeout the most the session may last; when it passes the session is closed and the exit
 *     code fails with an {@link ExecException}; default none (close the session to end it)
 */
public record ExecOptions(List<String> command, @Nullable String container, boolean stdin, boolean stdout,
        boolean stderr, boolean tty, @Nullable Duration timeout) {

    /** Checks each field; the message names the field. */
    public ExecOptions {
        command = List.copyOf(Objects.requireNonNull(command, "command"));
        if (container != null && container.isBlank()) {
            throw new IllegalArgumentException("container must not be blank");
        }
        if (tty && stderr) {
            throw new IllegalArgumentException("stderr must be false with tty: a terminal writes both to stdout");
        }
        if (!stdin && !stdout && !stderr) {
            throw new IllegalArgumentException("at least one of stdin, stdout and stderr must be set");
        }
        if (timeout != null) {
            Durations.requirePositive(timeout, "timeout");
        }
    }

    /** Runs {@code command} (stdout and stderr, no stdin, no terminal). */
    public static ExecOptions command(String... command) {
        return builder().command(command).build();
    }

    public static Builder builder() {
        return new Builder();
    }

    /** Builds {@link ExecOptions}; each setter's default is on the record. */
    public static final class Builder {
        private List<String> command = List.of();
        private @Nullable String container;
        private boolean stdin;
        private boolean stdout = true;
        private boolean stderr = true;
        private boolean tty;
        private @Nullable Duration timeout;

        private Builder() {
        }

        public Builder command(String... command) {
            this.command = List.of(command);
            return this;
        }

        public Builder command(List<String> command) {
            this.command = List.copyOf(command);
            return this;
        }

        public Builder container(@Nullable String container) {
            this.container = container;
            return this;
        }

        public Builder stdin(boolean stdin) {
            this.stdin = stdin;
            return this;
        }

        public Builder stdout(boolean stdout) {
            this.stdout = stdout;
            return this;
        }

        public Builder stderr(boolean stderr) {
            this.stderr = stderr;
            return this;
        }

        /** A terminal; also turns stderr off, which a terminal merges into stdout. */
        public Builder tty(boolean tty) {
            this.tty = tty;
            if (tty) {
                this.stderr = false;
            }
            return this;
        }

        public Builder timeout(@Nullable Duration timeout) {
            this.timeout = timeout;
            return this;
        }

        public ExecOptions build() {
            return new ExecOptions(command, container, stdin, stdout, stderr, tty, timeout);
        }
    }
}
