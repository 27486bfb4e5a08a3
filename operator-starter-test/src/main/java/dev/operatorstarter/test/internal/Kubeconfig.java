package dev.operatorstarter.test.internal;

import dev.operatorstarter.test.ClusterConnection;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;
import tools.jackson.dataformat.yaml.YAMLMapper;

/**
 * Writes the harness's kubeconfig files and reads the subset of kubeconfig that the harness needs
 * to reach an existing cluster (server, CA, client certificate or token). The operator runtime
 * has the full kubeconfig loader; this one stays small on purpose. Not API.
 */
public final class Kubeconfig {

    private static final YAMLMapper YAML = YAMLMapper.builder().build();

    private Kubeconfig() {
    }

    /** The facts of one kubeconfig context, with certificate data as PEM text. */
    public record Entry(URI server, String certificateAuthorityPem, @Nullable String clientCertificatePem,
            @Nullable String clientKeyPem, @Nullable String bearerToken, String context) {

        /** Names the server and context only: the key and token never reach a log. */
        @Override
        public String toString() {
            return "Kubeconfig.Entry[server=" + server + ", context=" + context + ", clientCertificate="
                    + (clientCertificatePem != null) + ", token=" + (bearerToken != null ? "<redacted>" : "none") + "]";
        }

        /**
         * Writes this entry to {@code file} as a kubeconfig whose only (and current) context is
         * {@code name}, and returns the connection it describes.
         */
        public ClusterConnection writeTo(Path file, String name) {
            write(file, name, server, certificateAuthorityPem, clientCertificatePem, clientKeyPem, bearerToken);
            return new ClusterConnection(server, certificateAuthorityPem, clientCertificatePem, clientKeyPem,
                    bearerToken, file);
        }
    }

    /**
     * Writes a kubeconfig with one cluster, user and context named {@code name}, the certificates
     * embedded as {@code *-data}, and makes it readable by the owner only (it holds a key).
     */
    public static void write(Path file, String name, URI server, String caPem, @Nullable String certPem,
            @Nullable String keyPem, @Nullable String token) {
        ObjectNode root = KubernetesApi.object();
        root.put("apiVersion", "v1").put("kind", "Config").put("current-context", name);
        ObjectNode cluster = KubernetesApi.object().put("server", server.toString())
                .put("certificate-authority-data", base64(caPem));
        root.putArray("clusters").add(KubernetesApi.object().put("name", name).set("cluster", cluster));
        ObjectNode user = KubernetesApi.object();
        if (certPem != null && keyPem != null) {
            user.put("client-certificate-data", base64(certPem)).put("client-key-data", base64(keyPem));
        }
        if (token != null) {
            user.put("token", token);
        }
        root.putArray("users").add(KubernetesApi.object().put("name", name).set("user", user));
        ObjectNode context = KubernetesApi.object().put("cluster", name).put("user", name);
        root.putArray("contexts").add(KubernetesApi.object().put("name", name).set("context", context));
        root.putObject("preferences");
        try {
            OwnerOnly.write(file, YAML.writeValueAsString(root));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write kubeconfig " + file + ": " + e.getMessage(), e);
        }
    }

    /**
     * Reads {@code context} (or the current context when {@code null}) from {@code file}.
     *
     * @throws IllegalArgumentException naming the file, context and field that is missing or bad
     */
    public static Entry read(Path file, @Nullable String context) {
        JsonNode root;
        try {
            root = YAML.readTree(Files.readString(file));
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot read kubeconfig " + file + ": " + e.getMessage(), e);
        } catch (JacksonException e) {
            throw new IllegalArgumentException("kubeconfig " + file + " is not valid YAML: " + e.getOriginalMessage(), e);
        }
        String contextName = context != null ? context : text(root, "current-context");
        if (contextName == null) {
            throw new IllegalArgumentException("kubeconfig " + file + " has no current-context and none was named");
        }
        JsonNode ctx = named(root, "contexts", contextName, file, "context").path("context");
        String clusterName = text(ctx, "cluster");
        String userName = text(ctx, "user");
        if (clusterName == null || userName == null) {
            throw new IllegalArgumentException("kubeconfig " + file + ", context '" + contextName
                    + "': the context must name a cluster and a user");
        }
        JsonNode cluster = named(root, "clusters", clusterName, file, "cluster").path("cluster");
        JsonNode user = named(root, "users", userName, file, "user").path("user");
        String where = "kubeconfig " + file + ", context '" + contextName + "'";

        String server = text(cluster, "server");
        if (server == null) {
            throw new IllegalArgumentException(where + ": cluster '" + clusterName + "' has no server");
        }
        String ca = pem(cluster, "certificate-authority", file, where);
        if (ca == null) {
            throw new IllegalArgumentException(where + ": cluster '" + clusterName
                    + "' has no certificate-authority(-data); the test harness always verifies TLS");
        }
        if (user.has("exec") || user.has("auth-provider")) {
            throw new IllegalArgumentException(where + ": user '" + userName
                    + "' uses an exec or auth-provider plugin, which the test harness does not run; "
                    + "use a context whose user has a token or a client certificate");
        }
        String cert = pem(user, "client-certificate", file, where);
        String key = pem(user, "client-key", file, where);
        String token = text(user, "token");
        String tokenFile = text(user, "tokenFile");
        if (token == null && tokenFile != null) {
            token = readRelative(file, tokenFile, where + ", user tokenFile").trim();
        }
        if ((cert == null || key == null) && token == null) {
            throw new IllegalArgumentException(where + ": user '" + userName
                    + "' has neither a client certificate and key nor a token");
        }
        return new Entry(URI.create(server), ca, cert, key, token, contextName);
    }

    private static JsonNode named(JsonNode root, String list, String name, Path file, String kind) {
        for (JsonNode item : root.path(list)) {
            if (name.equals(text(item, "name"))) {
                return item;
            }
        }
        throw new IllegalArgumentException("kubeconfig " + file + " has no " + kind + " named '" + name + "'");
    }

    /** The PEM text of {@code field}-data (base64) or {@code field} (a path relative to the file). */
    private static @Nullable String pem(JsonNode node, String field, Path file, String where) {
        String data = text(node, field + "-data");
        if (data != null) {
            try {
                return new String(Base64.getDecoder().decode(data.trim()), StandardCharsets.UTF_8);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(where + ": " + field + "-data is not valid base64", e);
            }
        }
        String path = text(node, field);
        return path == null ? null : readRelative(file, path, where + ", " + field);
    }

    private static String readRelative(Path kubeconfig, String path, String where) {
        Path resolved = kubeconfig.toAbsolutePath().getParent().resolve(path);
        try {
            return Files.readString(resolved);
        } catch (IOException e) {
            throw new IllegalArgumentException(where + ": cannot read " + resolved + ": " + e.getMessage(), e);
        }
    }

    private static @Nullable String text(JsonNode node, String field) {
        JsonNode value = node.get(field);
        return value == null || value.isNull() ? null : value.asString();
    }

    private static String base64(String text) {
        return Base64.getEncoder().encodeToString(text.getBytes(StandardCharsets.UTF_8));
    }
}
