package dev.operatorstarter.test.local;

import dev.operatorstarter.test.ClusterStartException;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * KWOK's controller as the local API server runs it with nodes: its command line, and the files
 * its wrapper writes first ({@code kwok defaults}: KWOK's own Stages and the CRDs of its Logs, Exec,
 * Attach and PortForward resources).
 *
 * <p>What the flags set up, read from KWOK v0.8.0's {@code pkg/kwok/cmd/root.go}:
 * <ul>
 *   <li>it manages only the nodes annotated {@value #NODE_ANNOTATION}{@code =}{@value #NODE_ANNOTATION_VALUE}
 *       ({@code --manage-nodes-with-annotation-selector}), and the Pods bound to them;</li>
 *   <li>each node's {@code InternalIP} is {@code 127.0.0.1} ({@code --node-ip}) and its kubelet port
 *       is KWOK's own server ({@code --node-port}, {@code --server-address}), which serves HTTPS with
 *       the run's serving certificate ({@code --tls-cert-file}), so kube-apiserver proxies a Pod's
 *       logs, exec, attach and port-forward there over verified TLS;</li>
 *   <li>Pods get IPs from {@value #POD_CIDR} ({@code --cidr}), apart from the Service range;</li>
 *   <li>nodes renew a Lease every 40 s ({@code --node-lease-duration-seconds}), as kwokctl's do;</li>
 *   <li>what a Pod's logs, exec, attach and port-forward do comes from KWOK's resources, served by
 *       the API server ({@code --enable-crds}): see {@code LocalApiServer#ensureNodes}.</li>
 * </ul>
 * {@code KWOK_WORKDIR} points at the run's folder, so that a user's {@code ~/.kwok/kwok.yaml} is not
 * loaded.
 */
final class Kwok {

    /** The annotation that marks a node as one of KWOK's. */
    static final String NODE_ANNOTATION = "kwok.x-k8s.io/node";
    static final String NODE_ANNOTATION_VALUE = "fake";
    static final String POD_CIDR = "10.244.0.0/16";
    /** KWOK's resources for the kubelet verbs, namespaced and cluster-wide. */
    static final List<String> VERB_KINDS = List.of("Logs", "ClusterLogs", "Exec", "ClusterExec", "Attach",
            "ClusterAttach", "PortForward", "ClusterPortForward");
    private static final Duration DEFAULTS_TIMEOUT = Duration.ofSeconds(30);

    private Kwok() {
    }

    static Path stages(RunLayout layout) {
        return layout.kwok.resolve("stages.yaml");
    }

    static Path crds(RunLayout layout) {
        return layout.kwok.resolve("crds");
    }

    /** Runs {@code kwok defaults} to write {@link #stages} and {@link #crds}. */
    static void writeDefaults(Path kwok, RunLayout layout) throws IOException {
        Path log = layout.logs.resolve("kwok-defaults.log");
        Process process = new ProcessBuilder(kwok.toString(), "defaults", layout.kwok.toString())
                .redirectErrorStream(true).redirectOutput(log.toFile()).start();
        try {
            if (!process.waitFor(DEFAULTS_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
                process.destroyForcibly();
                throw new ClusterStartException("'" + kwok + " defaults' did not finish within " + DEFAULTS_TIMEOUT);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new ClusterStartException("interrupted while running '" + kwok + " defaults'", e);
        }
        if (process.exitValue() != 0) {
            throw new ClusterStartException("'" + kwok + " defaults' failed with exit code " + process.exitValue()
                    + ":\n" + LogTail.of(log, 20));
        }
    }

    static List<String> arguments(RunLayout layout, int port) {
        return List.of(
                "--kubeconfig=" + layout.controllerManagerKubeconfig,
                "--config=" + stages(layout),
                "--manage-all-nodes=false",
                "--manage-nodes-with-annotation-selector=" + NODE_ANNOTATION + "=" + NODE_ANNOTATION_VALUE,
                "--node-ip=127.0.0.1",
                "--node-port=" + port,
                "--server-address=127.0.0.1:" + port,
                "--tls-cert-file=" + layout.servingCert,
                "--tls-private-key-file=" + layout.servingKey,
                "--cidr=" + POD_CIDR,
                "--node-lease-duration-seconds=40",
                "--enable-crds=" + String.join(",", VERB_KINDS));
    }

    static Map<String, String> environment(RunLayout layout) {
        return Map.of("KWOK_WORKDIR", layout.kwok.toString());
    }
}
