package dev.operatorstarter.client.config;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * The configuration of a process running in a pod: the API server from
 * {@code KUBERNETES_SERVICE_HOST}/{@code KUBERNETES_SERVICE_PORT}, and the service account's CA,
 * namespace and token from the mounted folder. The token is a {@link Credentials.TokenFile}, read
 * again when the kubelet rotates it.
 */
public final class InClusterConfig {

    private InClusterConfig() {
    }

    /** Reads the in-cluster configuration from the standard service-account folder. */
    public static ClientConfig load() {
        return load(System.getenv(), KubeconfigLoader.SERVICE_ACCOUNT_DIRECTORY);
    }

    /**
     * Whether this process runs in a pod with a service account, as client-go's
     * {@code rest.InClusterConfig} decides: {@code KUBERNETES_SERVICE_HOST} and
     * {@code KUBERNETES_SERVICE_PORT} are set and the token file in {@code serviceAccountDirectory}
     * is readable.
     */
    static boolean inPod(Map<String, String> environment, Path serviceAccountDirectory) {
        return !isBlank(environment.get("KUBERNETES_SERVICE_HOST")) && !isBlank(environment.get("KUBERNETES_SERVICE_PORT"))
                && Files.isReadable(serviceAccountDirectory.resolve("token"));
    }

    private static boolean isBlank(@Nullable String value) {
        return value == null || value.isBlank();
    }

    /** Reads the in-cluster configuration from {@code environment} and {@code serviceAccountDirectory}. */
    public static ClientConfig load(Map<String, String> environment, Path serviceAccountDirectory) {
        String host = environment.get("KUBERNETES_SERVICE_HOST");
        String port = environment.get("KUBERNETES_SERVICE_PORT");
        if (host == null || host.isBlank() || port == null || port.isBlank()) {
            throw new ConfigException("not running in a pod: KUBERNETES_SERVICE_HOST and KUBERNETES_SERVICE_PORT "
                    + "must both be set");
        }
        Path token = serviceAccountDirectory.resolve("token");
        Path ca = serviceAccountDirectory.resolve("ca.crt");
        if (!Files.isReadable(token)) {
            throw new ConfigException("in-cluster configuration: the service-account token " + token
                    + " is missing or unreadable (is automountServiceAccountToken false?)");
        }
        TlsSettings tls = TlsSettings.defaults();
        if (Files.exists(ca)) {
            try {
                tls = new TlsSettings(Certificates.certificates(Files.readAllBytes(ca), "in-cluster CA " + ca), false,
                        null, null);
            } catch (IOException e) {
                throw new ConfigException.UnreadableCertificate("in-cluster configuration: cannot read the CA " + ca + ": " + e.getMessage(), e);
            }
        }
        String namespace = "default";
        Path namespaceFile = serviceAccountDirectory.resolve("namespace");
        if (Files.isReadable(namespaceFile)) {
            try {
                namespace = Files.readString(namespaceFile).trim();
            } catch (IOException e) {
                throw new ConfigException("in-cluster configuration: cannot read " + namespaceFile + ": "
                        + e.getMessage(), e);
            }
        }
        // An IPv6 service host needs brackets in a URL.
        String hostPart = host.contains(":") && !host.startsWith("[") ? "[" + host + "]" : host;
        URI server = URI.create("https://" + hostPart + ":" + port.trim());
        return new ClientConfig(server, tls, new Credentials.TokenFile(token), null,
                namespace.isEmpty() ? "default" : namespace, "in-cluster service account " + serviceAccountDirectory);
    }
}
