package dev.operatorstarter.client.config;

import java.nio.file.Path;

/**
 * Where a field of a kubeconfig lives ({@code path} is the context and the cluster or user entry
 * in words), for messages that name the file, entry and field, and for resolving relative paths
 * against the file's folder.
 */
record KubeconfigField(Path file, String path) {

    String describe(String field) {
        return "kubeconfig " + file + ": " + path + ": " + field;
    }

    ConfigException error(String field, String problem) {
        return new ConfigException(describe(field) + " " + problem);
    }

    /** A certificate or key field ({@code pem} reads only those) that cannot be read. */
    ConfigException certificateError(String field, String problem) {
        return new ConfigException.UnreadableCertificate(describe(field) + " " + problem);
    }

    Path directory() {
        Path parent = file.toAbsolutePath().getParent();
        return parent == null ? Path.of(".").toAbsolutePath() : parent;
    }

    Path resolve(String path) {
        return directory().resolve(path);
    }
}
