package dev.operatorstarter.autoconfigure.wiring;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Kubeconfig files for tests that never reach a server: two contexts on unroutable loopback ports. */
final class Kubeconfigs {

    private Kubeconfigs() {
    }

    /** Contexts {@code one} (current; namespace {@code apps}) and {@code two} (namespace {@code tools}). */
    static Path twoContexts(Path folder) {
        return write(folder.resolve("kubeconfig"), """
                apiVersion: v1
                kind: Config
                current-context: one
                clusters:
                  - name: first
                    cluster:
                      server: https://127.0.0.1:1
                      insecure-skip-tls-verify: true
                  - name: second
                    cluster:
                      server: https://127.0.0.2:2
                      insecure-skip-tls-verify: true
                users:
                  - name: robot
                    user:
                      token: not-a-real-token
                contexts:
                  - name: one
                    context: {cluster: first, user: robot, namespace: apps}
                  - name: two
                    context: {cluster: second, user: robot, namespace: tools}
                """);
    }

    /** One context without a namespace, as the test harness writes its kubeconfig. */
    static Path noNamespace(Path folder) {
        return write(folder.resolve("kubeconfig-without-namespace"), """
                apiVersion: v1
                kind: Config
                current-context: local
                clusters:
                  - name: local
                    cluster:
                      server: https://127.0.0.1:1
                      insecure-skip-tls-verify: true
                users:
                  - name: robot
                    user:
                      token: not-a-real-token
                contexts:
                  - name: local
                    context: {cluster: local, user: robot}
                """);
    }

    private static Path write(Path file, String text) {
        try {
            return Files.writeString(file, text);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
