package dev.operatorstarter.client.pod;

/**
 * What a command wrote and how it ended ({@link ExecSession#collect}).
 *
 * @param stdout its standard output, decoded as UTF-8
 * @param stderr its standard error, decoded as UTF-8 (empty with a terminal)
 * @param exitCode its exit code: 0 for success
 */
public record ExecResult(String stdout, String stderr, int exitCode) {
}
