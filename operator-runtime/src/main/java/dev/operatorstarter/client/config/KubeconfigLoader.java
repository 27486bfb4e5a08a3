package dev.operatorstarter.client.config;

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
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.core.exc.StreamConstraintsException;
import tools.jackson.databind.JsonNode;
import tools.jackson.dataformat.yaml.YAMLMapper;

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
 */
public final class KubeconfigLoader {

    /** Where Kubernetes mounts a pod's service-account token, CA and namespace. */
    public static final Path SERVICE_ACCOUNT_DIRECTORY = Path.of("/var/run/secrets/kubernetes.io/serviceaccount");

    private static final YAMLMapper YAML = YAMLMapper.builder().build();

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
        Merged merged = new Merged();
        List<Path> read = new ArrayList<>();
        for (Path file : files) {
            if (!Files.exists(file)) {
                continue; // kubectl skips listed files that do not exist
            }
            JsonNode root = parse(readBytes(file), file);
            try {
                merged.add(file, root);
            } catch (WrongType e) {
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
        Merged merged = new Merged();
        JsonNode root = parse(yaml, file);
        try {
            merged.add(file, root);
        } catch (WrongType e) {
            throw e.at("kubeconfig " + file);
        }
        return resolve(merged, List.of(file), context);
    }

    private static ClientConfig resolve(Merged merged, List<Path> read, @Nullable String context) {
        try {
            return resolveChecked(merged, read, context);
        } catch (WrongType e) {
            String contextName = context != null ? context : merged.currentContext;
            Entry entry = contextName == null ? null : merged.contexts.get(contextName);
            throw e.at(entry == null ? "kubeconfig " + (read.size() == 1 ? read.get(0) : read)
                    : "kubeconfig " + entry.file + ": context \"" + shown(contextName) + "\"");
        }
    }

    private static ClientConfig resolveChecked(Merged merged, List<Path> read, @Nullable String context) {
        String where = read.size() == 1 ? "kubeconfig " + read.get(0) : "kubeconfig " + read;
        String contextName = context != null ? context : merged.currentContext;
        if (contextName == null || contextName.isEmpty()) {
            throw new ConfigException(where + " has no current-context and no context was given; contexts: "
                    + shown(merged.contexts.keySet()));
        }
        Entry contextEntry = merged.contexts.get(contextName);
        if (contextEntry == null) {
            throw new ConfigException.UnknownContext(where + " has no context \"" + shown(contextName) + "\"; contexts: "
                    + shown(merged.contexts.keySet()), shown(contextName), shown(merged.contexts.keySet()));
        }
        String inContext = "kubeconfig " + contextEntry.file + ": context \"" + shown(contextName) + "\"";
        String clusterName = text(contextEntry.node, "cluster");
        String userName = text(contextEntry.node, "user");
        if (clusterName == null) {
            throw new ConfigException(inContext + ": field cluster is missing");
        }
        Entry cluster = merged.clusters.get(clusterName);
        if (cluster == null) {
            throw new ConfigException(inContext + ": cluster \"" + shown(clusterName) + "\" is not defined; clusters: "
                    + shown(merged.clusters.keySet()));
        }
        Entry user = null;
        if (userName != null && !userName.isEmpty()) {
            user = merged.users.get(userName);
            if (user == null) {
                throw new ConfigException(inContext + ": user \"" + shown(userName) + "\" is not defined; users: "
                        + shown(merged.users.keySet()));
            }
        }
        String namespace = text(contextEntry.node, "namespace");
        String source = "kubeconfig " + contextEntry.file + ", context " + shown(contextName);
        Field clusterField = new Field(cluster.file, "context \"" + shown(contextName) + "\": cluster \""
                + shown(clusterName) + "\"");
        URI server = server(cluster.node, clusterField);
        ClientCertificate certificate = null;
        Credentials credentials = Credentials.none();
        if (user != null) {
            Field userField = new Field(user.file, "context \"" + shown(contextName) + "\": user \"" + shown(userName) + "\"");
            certificate = clientCertificate(user.node, userField);
            credentials = credentials(user.node, userField);
        }
        boolean insecure = flag(cluster.node, "insecure-skip-tls-verify");
        List<X509Certificate> authorities = certificateAuthorities(cluster.node, clusterField);
        if (insecure && !authorities.isEmpty()) {
            // as client-go: a CA that would be ignored is a mistake worth stopping for
            throw clusterField.error("insecure-skip-tls-verify", "is true although a certificate-authority is given; "
                    + "remove one of them");
        }
        TlsSettings tls = new TlsSettings(authorities, insecure, text(cluster.node, "tls-server-name"), certificate);
        return new ClientConfig(server, tls, credentials, proxy(cluster.node, clusterField),
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

    private static JsonNode parse(byte[] yaml, Path file) {
        JsonNode root;
        try {
            root = YAML.readTree(yaml);
        } catch (JacksonException e) {
            // Jackson's and SnakeYAML's messages quote the text around the error, which may be a
            // token or a key: the message is built from the location alone, and the parser's
            // exception is not kept as the cause, since its message would quote the text all the same.
            throw new ConfigException("kubeconfig " + file + " is not valid YAML" + location(e) + problem(e));
        }
        if (root == null || root.isMissingNode() || root.isNull()) {
            return YAML.createObjectNode(); // an empty file is an empty configuration, as for kubectl
        }
        if (!root.isObject()) {
            throw new ConfigException("kubeconfig " + file + " is not a YAML mapping");
        }
        return root;
    }

    /** " at line L, column C" where the parser stopped, or nothing when it does not say. */
    private static String location(JacksonException e) {
        var where = e.getLocation();
        if (where == null || where.getLineNr() < 1) {
            return "";
        }
        return " at line " + where.getLineNr() + (where.getColumnNr() < 1 ? "" : ", column " + where.getColumnNr());
    }

    /** The one kind of parser problem whose message is ours to show: a limit (nesting, length) was passed. */
    private static String problem(JacksonException e) {
        return e instanceof StreamConstraintsException ? " (" + e.getOriginalMessage() + ")" : "";
    }

    private static URI server(JsonNode cluster, Field field) {
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

    private static @Nullable URI proxy(JsonNode cluster, Field field) {
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

    private static List<X509Certificate> certificateAuthorities(JsonNode cluster, Field field) {
        Pem pem = pem(cluster, "certificate-authority-data", "certificate-authority", field);
        if (pem == null) {
            return List.of();
        }
        return Certificates.certificates(pem.bytes(), field.describe(pem.field()));
    }

    private static @Nullable ClientCertificate clientCertificate(JsonNode user, Field field) {
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

    private static Credentials credentials(JsonNode user, Field field) {
        List<String> methods = new ArrayList<>();
        if (!isEmpty(text(user, "token")) || !isEmpty(text(user, "tokenFile"))) {
            methods.add("token");
        }
        if (!isEmpty(text(user, "username")) || !isEmpty(text(user, "password"))) {
            methods.add("basic auth");
        }
        if (user.has("exec")) {
            methods.add("exec");
        }
        if (user.has("auth-provider")) {
            throw field.error("auth-provider", "is not supported (client-go removed its built-in providers in "
                    + "1.26); use an exec credential plugin such as kubelogin or gke-gcloud-auth-plugin");
        }
        if (methods.size() > 1) {
            throw field.error("user", "has more than one authentication method " + methods + "; only one is allowed");
        }
        String tokenFile = text(user, "tokenFile");
        if (tokenFile != null && !tokenFile.isEmpty()) {
            // As in client-go, a token file takes precedence over an inline token.
            return new Credentials.TokenFile(field.resolve(tokenFile));
        }
        String token = text(user, "token");
        if (token != null && !token.isEmpty()) {
            return new Credentials.BearerToken(token);
        }
        if (methods.contains("basic auth")) {
            String username = text(user, "username");
            String password = text(user, "password");
            if (username == null || password == null) {
                throw field.error(username == null ? "username" : "password",
                        "is missing: basic auth needs both username and password");
            }
            return new Credentials.Basic(username, password);
        }
        if (user.has("exec")) {
            return exec(user.get("exec"), field);
        }
        return Credentials.none();
    }

    private static Credentials.Exec exec(JsonNode exec, Field field) {
        String apiVersion = text(exec, "apiVersion");
        if (!"client.authentication.k8s.io/v1".equals(apiVersion)
                && !"client.authentication.k8s.io/v1beta1".equals(apiVersion)) {
            throw field.error("exec.apiVersion", apiVersion == null ? "is missing"
                    : "\"" + shown(apiVersion) + "\" is not supported; use client.authentication.k8s.io/v1 or v1beta1");
        }
        String command = text(exec, "command");
        if (command == null || command.isEmpty()) {
            throw field.error("exec.command", "is missing");
        }
        List<String> args = new ArrayList<>();
        for (JsonNode arg : exec.path("args")) {
            if (arg.isContainer()) {
                throw new WrongType("exec.args[]", arg);
            }
            args.add(arg.asString());
        }
        Map<String, String> env = new LinkedHashMap<>();
        for (JsonNode variable : exec.path("env")) {
            String name = text(variable, "name");
            if (name == null) {
                throw field.error("exec.env", "has an entry without name");
            }
            String value = text(variable, "value");
            env.put(name, value == null ? "" : value);
        }
        String mode = text(exec, "interactiveMode");
        Credentials.InteractiveMode interactiveMode;
        if (mode == null || mode.isEmpty()) {
            // v1 requires the field; v1beta1 defaults to IfAvailable, as in client-go.
            if (apiVersion.endsWith("/v1")) {
                throw field.error("exec.interactiveMode", "is required for client.authentication.k8s.io/v1 "
                        + "(Never, IfAvailable or Always)");
            }
            interactiveMode = Credentials.InteractiveMode.IF_AVAILABLE;
        } else {
            interactiveMode = switch (mode) {
                case "Never" -> Credentials.InteractiveMode.NEVER;
                case "IfAvailable" -> Credentials.InteractiveMode.IF_AVAILABLE;
                case "Always" -> Credentials.InteractiveMode.ALWAYS;
                default -> throw field.error("exec.interactiveMode", "\"" + shown(mode)
                        + "\" is not one of Never, IfAvailable, Always");
            };
        }
        return new Credentials.Exec(apiVersion, command, args, env, interactiveMode,
                flag(exec, "provideClusterInfo"), isEmpty(text(exec, "installHint")) ? "" : text(exec, "installHint"),
                field.directory());
    }

    /** The bytes of {@code dataField} (base64) or of the file named by {@code fileField}; null if neither is set. */
    /**
     * PEM content and the kubeconfig field it came from, as written in the file, so that an error
     * about the content names the field the user has to fix ({@code certificate-authority-data},
     * not {@code certificate-authority}).
     */
    private record Pem(byte[] bytes, String field) {
    }

    /** The content of {@code dataField} (base64), else of the file {@code fileField} names; null when neither is set. */
    private static @Nullable Pem pem(JsonNode node, String dataField, String fileField, Field field) {
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

    private static boolean isEmpty(@Nullable String value) {
        return value == null || value.isEmpty();
    }

    /**
     * A name or value from the file as a message shows it: as it is when it looks like a name (no
     * white space or control characters, at most 253 characters), else only its length. A mangled
     * file (a stray quote) can turn half of itself, tokens included, into one "name".
     */
    private static String shown(String value) {
        boolean nameLike = value.length() <= 253
                && value.chars().noneMatch(c -> Character.isWhitespace(c) || Character.isISOControl(c));
        return nameLike ? value : "<" + value.length() + " characters, not shown>";
    }

    private static List<String> shown(java.util.Collection<String> values) {
        return values.stream().map(KubeconfigLoader::shown).toList();
    }

    /** A scalar field as text; null when absent or null. */
    private static @Nullable String text(JsonNode node, String field) {
        JsonNode value = node.get(field);
        if (value == null || value.isNull()) {
            return null;
        }
        if (value.isContainer()) {
            throw new WrongType(field, value);
        }
        return value.asString();
    }

    /** A boolean field; false when absent. */
    private static boolean flag(JsonNode node, String field) {
        JsonNode value = node.get(field);
        if (value != null && value.isContainer()) {
            throw new WrongType(field, value);
        }
        return value != null && value.asBoolean(false);
    }

    /**
     * A list or mapping where a scalar belongs. Thrown where the field is read and turned into a
     * {@link ConfigException} by the caller that knows the file and context; the value itself is
     * never printed (it may be a secret).
     */
    private static final class WrongType extends RuntimeException {

        private static final long serialVersionUID = 1L;

        private final String field;
        private final String found;

        WrongType(String field, JsonNode value) {
            super(null, null, false, false);
            this.field = field;
            this.found = value.isArray() ? "a list" : "a mapping";
        }

        ConfigException at(String where) {
            return new ConfigException(where + ": field " + field + " must be a single value, not " + found);
        }
    }

    /** The named entries of all files, first definition winning. */
    private static final class Merged {
        final Map<String, Entry> clusters = new LinkedHashMap<>();
        final Map<String, Entry> users = new LinkedHashMap<>();
        final Map<String, Entry> contexts = new LinkedHashMap<>();
        @Nullable String currentContext;

        void add(Path file, JsonNode root) {
            collect(file, root, "clusters", "cluster", clusters);
            collect(file, root, "users", "user", users);
            collect(file, root, "contexts", "context", contexts);
            String current = text(root, "current-context");
            if (currentContext == null && current != null && !current.isEmpty()) {
                currentContext = current;
            }
        }

        private static void collect(Path file, JsonNode root, String list, String field, Map<String, Entry> into) {
            JsonNode entries = root.get(list);
            if (entries == null || entries.isNull()) {
                return;
            }
            if (!entries.isArray()) {
                throw new ConfigException("kubeconfig " + file + ": field " + list + " must be a list");
            }
            int index = 0;
            for (JsonNode entry : entries) {
                String name = text(entry, "name");
                if (name == null || name.isEmpty()) {
                    throw new ConfigException("kubeconfig " + file + ": " + list + "[" + index + "] has no name");
                }
                JsonNode body = entry.get(field);
                if (body == null || !body.isObject()) {
                    throw new ConfigException("kubeconfig " + file + ": " + list + "[" + index + "] (\"" + shown(name)
                            + "\") has no " + field + " mapping");
                }
                into.putIfAbsent(name, new Entry(file, body));
                index++;
            }
        }
    }

    private record Entry(Path file, JsonNode node) {
    }

    /** Where a field lives, for messages and for resolving relative paths. */
    private record Field(Path file, String path) {

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
}
