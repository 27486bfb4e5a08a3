package dev.operatorstarter.client.discovery;

/** The server's {@code /version}: for example {@code 1}, {@code 37}, {@code v1.37.2}, {@code linux/amd64}. */
public record ServerVersion(String major, String minor, String gitVersion, String platform) {
}
