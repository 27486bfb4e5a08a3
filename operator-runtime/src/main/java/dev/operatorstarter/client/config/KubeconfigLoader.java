package dev.operatorstarter.client.config;

import static dev.operatorstarter.client.config.KubeconfigParser.flag;
import static dev.operatorstarter.client.config.KubeconfigParser.shown;
import static dev.operatorstarter.client.config.KubeconfigParser.text;

import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * Reads kubeconfig files the way kubectl does.
 *
 * <p>Several files (the {@code KUBECONFIG} list) are merged: for clusters, users and contexts the
 * first file that defines a name wins, and the first non-empty {@code current-context} wins;
 * listed files that do not exist are skipped. Relative paths in an entry resolve against the
 * folder of the file that holds the entry. Certificates and keys are read when the configuration
 * is loaded, so a bad file fails here and not at the first request.
 *
 * <p>Every error is a {@link ConfigException} naming the file, context and field.
 *
 * <p>The parts: {@link KubeconfigParser} reads a file's YAML, {@link MergedKubeconfig} merges the
 * files, {@link KubeconfigCredentials} reads a user's credentials (exec plugins included); this
 * class finds the files and resolves the chosen context into a {@link ClientConfig}.
 */
public final class KubeconfigLoader {

    /** Where Kubernetes mounts a pod's service-account token, CA and namespace. */
    public static final Path SERVICE_ACCOUNT_DIRECTORY = Path.of("/var/run/secrets/kubernetes.io/serviceaccount");

    private KubeconfigLoader() {
    }

    /**
     * The configuration found from {@code environment}, in controller-runtime's order:
     * <ol>
     *   <li>the files in {@code KUBECONFIG}, when it is set;</li>
     *   <li>the in-cluster service account, when running in a pod: {@code KUBERNETES_SERVICE_HOST}
     *       and {@code KUBERNETES_SERVICE_PORT} are set and the service-account token
     *       ({@link #SERVICE_ACCOUNT_DIRECTORY}{@code /token}) is readable;</li>
     *   <li>{@code $HOME/.kube/config}, when it exists;</li>
     *   <li>otherwise a {@link ConfigException} saying what was tried (and, when
     *       {@code KUBERNETES_SERVICE_HOST} is set, what the pod lacks).</li>
     * </ol>
     * So in a pod the service account wins over a {@code ~/.kube/config} that happens to be in the
     * image, and an explicit kubeconfig still wins over both. Without a {@code proxy-url}, the
     * proxy comes from {@code HTTPS_PROXY}/{@code HTTP_PROXY} and {@code NO_PROXY}, as in client-go.
     *
     * @param context the context to use, or {@code null} for the current context
     */
    public static ClientConfig fromEnvironment(Map<String, String> environment, @Nullable String context) {
        return fromEnvironment(environment, context, SERVICE_ACCOUNT_DIRECTORY);
    }

    /** {@link #fromEnvironment(Map, String)} with the service-account folder as an input, for tests. */
    static ClientConfig fromEnvironment(Map<String, String> environment, @Nullable String context,
            Path serviceAccountDirectory) {
        ClientConfig config = fromEnvironmentWithoutProxy(environment, context, serviceAccountDirectory);
        if (config.proxy() != null) {
            return config; // the kubeconfig's proxy-url wins over the environment
        }
        return config.withProxy(EnvironmentProxy.forServer(config.server(), environment));
    }

    private static ClientConfig fromEnvironmentWithoutProxy(Map<String, String> environment, @Nullable String context,
            Path serviceAccountDirectory) {
        String kubeconfig = environment.get("KUBECONFIG");
        if (kubeconfig != null && !kubeconfig.isBlank()) {
            List<Path> files = new ArrayList<>();
            for (String part : kubeconfig.split(File.pathSeparator)) {
                if (!part.isBlank()) {
                    files.add(Path.of(part));
                }
            }
            return load(files, context);
        }
        if (InClusterConfig.inPod(environment, serviceAccountDirectory)) {
            return InClusterConfig.load(environment, serviceAccountDirectory);
        }
        String home = environment.getOrDefault("HOME", System.getProperty("user.home"));
        Path defaultFile = Path.of(home, ".kube", "config");
        if (Files.isRegularFile(defaultFile)) {
            return load(List.of(defaultFile), context);
        }
        if (environment.containsKey("KUBERNETES_SERVICE_HOST")) {
            return InClusterConfig.load(environment, serviceAccountDirectory); // says what the pod lacks
        }
        throw new ConfigException.NotFound("no Kubernetes configuration found: KUBECONFIG is not set, "
                + "KUBERNETES_SERVICE_HOST is not set (not running in a pod), and " + defaultFile + " does not exist");
    }

    /** Reads one kubeconfig file. */
    public static ClientConfig load(Path file, @Nullable String context) {
        if (!Files.exists(file)) {
            throw new ConfigException("kubeconfig " + file + " does not exist");
        }
        return load(List.of(file), context);
    }

    /** Merges {@code files} by kubectl's rules and reads {@code context} (or the current context). */
    public static ClientConfig load(List<Path> files, @Nullable String context) {
        MergedKubeconfig merged = new MergedKubeconfig();
        List<Path> read = new ArrayList<>();
        for (Path file : files) {
            if (!Files.exists(file)) {
                continue; // kubectl skips listed files that do not exist
            }
            JsonNode root = KubeconfigParser.parse(readBytes(file), file);
            try {
                merged.add(file, root);
            } catch (KubeconfigParser.WrongType e) {
                throw e.at("kubeconfig " + file);
            }
            read.add(file);
        }
        if (read.isEmpty()) {
            throw new ConfigException("none of the kubeconfig files " + files + " exists");
        }
        return resolve(merged, read, context);
    }

    /**
     * Reads {@code yaml} as if it were the content of {@code file} (relative paths in it resolve
     * against the file's folder): the loader without the file system, for tests.
     */
    static ClientConfig read(byte[] yaml, Path file, @Nullable String context) {
        MergedKubeconfig merged = new MergedKubeconfig();
        JsonNode root = KubeconfigParser.parse(yaml, file);
        try {
            merged.add(file, root);
        } catch (KubeconfigParser.WrongType e) {
            throw e.at("kubeconfig " + file);
        }
        return resolve(merged, List.of(file), context);
    }

    private static ClientConfig resolve(MergedKubeconfig merged, List<Path> read, @Nullable String context) {
        try {
            return resolveChecked(merged, read, context);
        } catch (KubeconfigParser.WrongType e) {
            String contextName = context != null ? context : merged.currentContext;
            MergedKubeconfig.Entry entry = contextName == null ? null : merged.contexts.get(contextName);
            throw e.at(entry == null ? "kubeconfig " + (read.size() == 1 ? read.get(0) : read)
                    : "kubeconfig " + entry.file() + ": context \"" + shown(contextName) + "\"");
        }
    }

    private static ClientConfig resolveChecked(MergedKubeconfig merged, List<Path> read, @Nullable String context) {
        String where = read.size() == 1 ? "kubeconfig " + read.get(0) : "kubeconfig " + read;
        String contextName = context != null ? context : merged.currentContext;
        if (contextName == null || contextName.isEmpty()) {
            throw new ConfigException(where + " has no current-context and no context was given; contexts: "
                    + shown(merged.contexts.keySet()));
        }
        MergedKubeconfig.Entry contextEntry = merged.contexts.get(contextName);
        if (contextEntry == null) {
            throw new ConfigException.UnknownContext(where + " has no context \"" + shown(contextName) + "\"; contexts: "
                    + shown(merged.contexts.keySet()), shown(contextName), shown(merged.contexts.keySet()));
        }
        String inContext = "kubeconfig " + contextEntry.file() + ": context \"" + shown(contextName) + "\"";
        String clusterName = text(contextEntry.node(), "cluster");
        String userName = text(contextEntry.node(), "user");
        if (clusterName == null) {
            throw new ConfigException(inContext + ": field cluster is missing");
        }
        MergedKubeconfig.Entry cluster = merged.clusters.get(clusterName);
        if (cluster == null) {
            throw new ConfigException(inContext + ": cluster \"" + shown(clusterName) + "\" is not defined; clusters: "
                    + shown(merged.clusters.keySet()));
        }
        MergedKubeconfig.Entry user = null;
        if (userName != null && !userName.isEmpty()) {
            user = merged.users.get(userName);
            if (user == null) {
                throw new ConfigException(inContext + ": user \"" + shown(userName) + "\" is not defined; users: "
                        + shown(merged.users.keySet()));
            }
        }
        String namespace = text(contextEntry.node(), "namespace");
        String source = "kubeconfig " + contextEntry.file() + ", context " + shown(contextName);
        KubeconfigField clusterField = new KubeconfigField(cluster.file(), "context \"" + shown(contextName) + "\": cluster \""
                + shown(clusterName) + "\"");
        URI server = server(cluster.node(), clusterField);
        ClientCertificate certificate = null;
        Credentials credentials = Credentials.none();
        if (user != null) {
            KubeconfigField userField = new KubeconfigField(user.file(), "context \"" + shown(contextName) + "\": user \"" + shown(userName) + "\"");
            certificate = clientCertificate(user.node(), userField);
            credentials = KubeconfigCredentials.of(user.node(), userField);
        }
        boolean insecure = flag(cluster.node(), "insecure-skip-tls-verify");
        List<X509Certificate> authorities = certificateAuthorities(cluster.node(), clusterField);
        if (insecure && !authorities.isEmpty()) {
            // as client-go: a CA that would be ignored is a mistake worth stopping for
            throw clusterField.error("insecure-skip-tls-verify", "is true although a certificate-authority is given; "
                    + "remove one of them");
        }
        TlsSettings tls = new TlsSettings(authorities, insecure, text(cluster.node(), "tls-server-name"), certificate);
        return new ClientConfig(server, tls, credentials, proxy(cluster.node(), clusterField),
                namespace == null || namespace.isEmpty() ? "default" : namespace, source);
    }

    private static byte[] readBytes(Path file) {
        try {
            return Files.readAllBytes(file);
        } catch (NoSuchFileException e) {
            throw new ConfigException("kubeconfig " + file + " does not exist", e);
        } catch (IOException e) {
            throw new ConfigException("cannot read kubeconfig " + file + ": " + e.getMessage(), e);
        }
    }

    private static URI server(JsonNode cluster, KubeconfigField field) {
        String server = text(cluster, "server");
        if (server == null || server.isEmpty()) {
            throw field.error("server", "is missing");
        }
        // Messages show the URL as RedactedUri prints it: a server URL may carry user info.
        try {
            URI uri = new URI(server);
            if (uri.getScheme() == null || uri.getHost() == null) {
                throw field.error("server", "\"" + RedactedUri.text(server)
                        + "\" is not an absolute URL such as https://host:6443");
            }
            if (!uri.getScheme().equals("https") && !uri.getScheme().equals("http")) {
                throw field.error("server", "\"" + new RedactedUri(uri) + "\" must start with https:// or http://");
            }
            return uri;
        } catch (URISyntaxException e) {
            // getReason() only: the exception's message quotes the whole input
            throw field.error("server", "\"" + RedactedUri.text(server)
                    + "\" is not an absolute URL such as https://host:6443 (" + e.getReason() + ")");
        }
    }

    private static @Nullable URI proxy(JsonNode cluster, KubeconfigField field) {
        String proxy = text(cluster, "proxy-url");
        if (proxy == null || proxy.isEmpty()) {
            return null;
        }
        // Messages show the URL as RedactedUri prints it: its user info is the proxy's password.
        URI uri;
        try {
            uri = new URI(proxy);
        } catch (URISyntaxException e) {
            // getReason() only: the exception's message quotes the whole input
            throw field.error("proxy-url", "\"" + RedactedUri.text(proxy) + "\" is not a valid URL: " + e.getReason());
        }
        String problem = ProxyScheme.problem(uri);
        if (problem != null) {
            throw field.error("proxy-url", "\"" + new RedactedUri(uri) + "\" " + problem);
        }
        return uri;
    }

    private static List<X509Certificate> certificateAuthorities(JsonNode cluster, KubeconfigField field) {
        Pem pem = pem(cluster, "certificate-authority-data", "certificate-authority", field);
        if (pem == null) {
            return List.of();
        }
        return Certificates.certificates(pem.bytes(), field.describe(pem.field()));
    }

    private static @Nullable ClientCertificate clientCertificate(JsonNode user, KubeconfigField field) {
        Pem certificatePem = pem(user, "client-certificate-data", "client-certificate", field);
        Pem keyPem = pem(user, "client-key-data", "client-key", field);
        if (certificatePem == null && keyPem == null) {
            return null;
        }
        if (certificatePem == null || keyPem == null) {
            throw field.error(certificatePem == null ? "client-certificate" : "client-key",
                    "is missing: client-certificate and client-key must be given together");
        }
        List<X509Certificate> chain = Certificates.certificates(certificatePem.bytes(),
                field.describe(certificatePem.field()));
        PrivateKey key = Certificates.privateKey(keyPem.bytes(), field.describe(keyPem.field()));
        return Certificates.matching(chain, key, field.describe(certificatePem.field()) + " and " + keyPem.field());
    }

    /**
     * PEM content and the kubeconfig field it came from, as written in the file, so that an error
     * about the content names the field the user has to fix ({@code certificate-authority-data},
     * not {@code certificate-authority}).
     */
    private record Pem(byte[] bytes, String field) {
    }

    /** The content of {@code dataField} (base64), else of the file {@code fileField} names; null when neither is set. */
    private static @Nullable Pem pem(JsonNode node, String dataField, String fileField, KubeconfigField field) {
        String data = text(node, dataField);
        if (data != null && !data.isEmpty()) {
            try {
                return new Pem(Base64.getDecoder().decode(data.replaceAll("\\s", "")), dataField);
            } catch (IllegalArgumentException e) {
                throw field.certificateError(dataField, "is not valid base64");
            }
        }
        String file = text(node, fileField);
        if (file != null && !file.isEmpty()) {
            Path path = field.resolve(file);
            try {
                return new Pem(Files.readAllBytes(path), fileField);
            } catch (NoSuchFileException e) {
                throw field.certificateError(fileField, "names " + path + ", which does not exist");
            } catch (IOException e) {
                throw field.certificateError(fileField, "names " + path + ", which cannot be read: " + e.getMessage());
            }
        }
        return null;
    }
}
