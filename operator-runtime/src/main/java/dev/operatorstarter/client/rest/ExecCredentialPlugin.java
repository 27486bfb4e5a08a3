package dev.operatorstarter.client.rest;

import dev.operatorstarter.client.config.ClientCertificate;
import dev.operatorstarter.client.config.ConfigException;
import dev.operatorstarter.client.config.Credentials;
import dev.operatorstarter.internal.DaemonThreads;
import dev.operatorstarter.time.TimeSource;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.ReentrantLock;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * Runs a kubeconfig exec credential plugin ({@code client.authentication.k8s.io/v1} or
 * {@code v1beta1}) and caches its token and/or client certificate until its
 * {@code expirationTimestamp}.
 *
 * <p>The plugin gets the client's environment plus its own {@code env} entries and
 * {@code KUBERNETES_EXEC_INFO} with {@code spec.interactive=false}: this client never has a
 * terminal, so a plugin whose {@code interactiveMode} is {@code Always} is refused with a clear
 * error. Standard input is closed. Failures name the plugin and the kubeconfig, and carry the end
 * of the plugin's standard error; output that is not an ExecCredential is described by where it
 * stops being JSON (line and column), never quoted, since it may be a bare token.
 */
final class ExecCredentialPlugin {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    /** How long a plugin may run; client-go has no limit, but a hung plugin must not hang every request. */
    static final Duration DEFAULT_TIMEOUT = Duration.ofMinutes(2);
    private static final int STDERR_LIMIT = 4096;

    private final Credentials.Exec exec;
    private final String source;
    private final TimeSource time;
    private final @Nullable ObjectNode clusterInfo;
    private final AtomicReference<@Nullable Credential> cached = new AtomicReference<>();
    private final ReentrantLock running = new ReentrantLock();
    private final Duration timeout;

    ExecCredentialPlugin(Credentials.Exec exec, String source, TimeSource time, @Nullable ObjectNode clusterInfo,
            Duration timeout) {
        this.exec = exec;
        this.source = source;
        this.time = time;
        this.clusterInfo = clusterInfo;
        this.timeout = timeout;
    }

    /**
     * What the plugin returned: a token, a client certificate, or both, and when they expire
     * (null: never, until a 401).
     */
    record Credential(@Nullable String token, @Nullable ClientCertificate certificate, @Nullable Instant expiry) {
        @Override
        public String toString() {
            return "Credential[token " + (token == null ? "none" : "<redacted>") + ", " + certificate + ", expires "
                    + expiry + "]";
        }
    }

    /**
     * The cached credential, or a fresh one if there is none or it has expired. Blocks while the
     * plugin runs; concurrent callers wait for that one run instead of starting their own.
     */
    Credential credential() {
        Credential current = cached.get();
        if (usable(current)) {
            return current;
        }
        running.lock();
        try {
            current = cached.get();
            if (!usable(current)) {
                current = run();
                cached.set(current);
            }
            return current;
        } finally {
            running.unlock();
        }
    }

    private boolean usable(@Nullable Credential credential) {
        return credential != null && (credential.expiry() == null || time.now().isBefore(credential.expiry()));
    }

    /**
     * Forgets the cached credential if it is the one a rejected request used: the one with
     * {@code usedToken}, or, for a certificate-only credential, the current one. Never blocks.
     */
    void invalidate(@Nullable String usedToken) {
        Credential current = cached.get();
        if (current != null && java.util.Objects.equals(current.token(), usedToken)) {
            cached.compareAndSet(current, null);
        }
    }

    private Credential run() {
        String name = "exec credential plugin \"" + exec.command() + "\" (" + source + ")";
        if (exec.interactiveMode() == Credentials.InteractiveMode.ALWAYS) {
            throw new ConfigException(name + " has interactiveMode Always, but this client has no terminal to offer");
        }
        List<String> command = new ArrayList<>();
        command.add(resolveCommand());
        command.addAll(exec.args());
        // Like client-go: the plugin runs in this process's working directory; only a relative
        // command path is resolved against the kubeconfig's folder.
        ProcessBuilder builder = new ProcessBuilder(command);
        builder.environment().putAll(exec.env());
        builder.environment().put("KUBERNETES_EXEC_INFO", execInfo());
        Process process;
        try {
            process = builder.start();
        } catch (IOException e) {
            throw new ConfigException(name + " cannot be started: " + e.getMessage()
                    + (exec.installHint().isBlank() ? "" : "\n" + exec.installHint()), e);
        }
        long deadline = time.deadlineAfter(timeout);
        StreamPump stdout = StreamPump.start(process.getInputStream(), Integer.MAX_VALUE, "stdout");
        StreamPump stderr = StreamPump.start(process.getErrorStream(), STDERR_LIMIT, "stderr");
        try {
            process.getOutputStream().close(); // no standard input: never interactive
            if (!process.waitFor(time.nanosUntil(deadline), TimeUnit.NANOSECONDS)) {
                throw new ConfigException(name + " did not finish within " + timeout.toMillis() + " ms");
            }
            byte[] output = stdout.finish();
            String errors = new String(stderr.finish(), StandardCharsets.UTF_8).strip();
            if (process.exitValue() != 0) {
                throw new ConfigException(name + " exited with code " + process.exitValue()
                        + (errors.isEmpty() ? "" : "; its standard error ends with:\n" + errors));
            }
            return parse(output, name);
        } catch (IOException e) {
            throw new ConfigException(name + " failed: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ConfigException(name + " was interrupted", e);
        } finally {
            if (process.isAlive()) {
                process.descendants().forEach(ProcessHandle::destroyForcibly);
                process.destroyForcibly();
            }
            stdout.close();
            stderr.close();
        }
    }

    /**
     * Moves one of the plugin's output streams into memory while the plugin runs, keeping at most
     * {@code limit} bytes (the end), so that a plugin with much to say never blocks on a full pipe.
     * It only reads what is available and never waits in a read: once the plugin has exited,
     * everything it wrote is in the pipe and {@link #finish} takes it at once. Waiting for the end
     * of the stream instead would wait for any child the plugin left running with the pipe open.
     */
    private static final class StreamPump {
        private static final long POLL_MILLIS = 5;

        private final InputStream in;
        private final int limit;
        private final Thread thread;
        private final byte[] buffer = new byte[8192];
        private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        private volatile boolean stopped;
        private volatile @Nullable IOException failure;

        private StreamPump(InputStream in, int limit, String name) {
            this.in = in;
            this.limit = limit;
            this.thread = DaemonThreads.named("exec-plugin-" + name).newThread(this::pump);
        }

        static StreamPump start(InputStream in, int limit, String name) {
            StreamPump pump = new StreamPump(in, limit, name);
            pump.thread.start();
            return pump;
        }

        private void pump() {
            try {
                while (!stopped) {
                    if (!readAvailable()) {
                        Thread.sleep(POLL_MILLIS);
                    }
                }
            } catch (IOException e) {
                if (!stopped) {
                    failure = e;
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }

        /** Reads what the pipe holds now without blocking; true if there was anything. */
        private boolean readAvailable() throws IOException {
            boolean any = false;
            for (int available = in.available(); available > 0; available = in.available()) {
                int read = in.read(buffer, 0, Math.min(available, buffer.length));
                if (read < 0) {
                    break;
                }
                bytes.write(buffer, 0, read);
                if (bytes.size() > 2L * limit) {
                    byte[] all = bytes.toByteArray();
                    bytes.reset();
                    bytes.write(all, all.length - limit, limit);
                }
                any = true;
            }
            return any;
        }

        /** Everything the plugin wrote (at most the last {@code limit} bytes); call once it has exited. */
        byte[] finish() throws InterruptedException, IOException {
            stopped = true;
            thread.join(); // it only ever waits in a short sleep
            if (failure != null) {
                throw failure;
            }
            readAvailable();
            byte[] all = bytes.toByteArray();
            return all.length <= limit ? all : Arrays.copyOfRange(all, all.length - limit, all.length);
        }

        void close() {
            stopped = true;
            try {
                in.close();
            } catch (IOException e) {
                // already closed
            }
        }
    }

    private String resolveCommand() {
        String command = exec.command();
        // As in client-go: a relative path with a separator is relative to the kubeconfig's folder;
        // a bare name is looked up on PATH.
        if (command.contains("/") && !Path.of(command).isAbsolute()) {
            return exec.workingDirectory().resolve(command).normalize().toString();
        }
        return command;
    }

    private String execInfo() {
        ObjectNode info = JSON.createObjectNode();
        info.put("apiVersion", exec.apiVersion()).put("kind", "ExecCredential");
        ObjectNode spec = info.putObject("spec");
        spec.put("interactive", false);
        if (exec.provideClusterInfo() && clusterInfo != null) {
            spec.set("cluster", clusterInfo);
        }
        return JSON.writeValueAsString(info);
    }

    private Credential parse(byte[] stdout, String name) {
        JsonNode credential;
        try {
            credential = JSON.readTree(stdout);
        } catch (JacksonException e) {
            // Jackson's messages quote the input, and a plugin that prints a bare token would have it
            // end up in logs and status pages: the message is built from the location alone, and the
            // exception is not kept as the cause (its message would print the token all the same).
            throw new ConfigException(name + " printed output that is not valid JSON" + location(e) + " ("
                    + stdout.length + " bytes; not shown, since it may hold a credential)");
        }
        if (credential == null || !credential.isObject()) {
            throw new ConfigException(name + " printed no ExecCredential JSON object");
        }
        if (!"ExecCredential".equals(credential.path("kind").asString(""))) {
            throw new ConfigException(name + " printed kind \"" + credential.path("kind").asString("")
                    + "\", expected ExecCredential");
        }
        String apiVersion = credential.path("apiVersion").asString("");
        if (!exec.apiVersion().equals(apiVersion)) {
            throw new ConfigException(name + " printed apiVersion \"" + apiVersion + "\", but the kubeconfig asks for "
                    + exec.apiVersion());
        }
        JsonNode status = credential.path("status");
        String token = status.path("token").asString("");
        String certificatePem = status.path("clientCertificateData").asString("");
        String keyPem = status.path("clientKeyData").asString("");
        ClientCertificate certificate = null;
        if (!certificatePem.isEmpty() || !keyPem.isEmpty()) {
            if (certificatePem.isEmpty() || keyPem.isEmpty()) {
                throw new ConfigException(name + " printed only one of status.clientCertificateData and "
                        + "status.clientKeyData; both are needed");
            }
            certificate = ClientCertificate.fromPem(certificatePem.getBytes(StandardCharsets.US_ASCII),
                    keyPem.getBytes(StandardCharsets.US_ASCII), name + ": status.clientCertificateData/clientKeyData");
        }
        if (token.isEmpty() && certificate == null) {
            throw new ConfigException(name + " printed an ExecCredential with neither status.token nor a client "
                    + "certificate");
        }
        Instant expiry = null;
        String expiration = status.path("expirationTimestamp").asString("");
        if (!expiration.isEmpty()) {
            try {
                expiry = Instant.parse(expiration);
            } catch (DateTimeParseException e) {
                throw new ConfigException(name + " printed an expirationTimestamp that is not RFC 3339: " + expiration, e);
            }
        }
        return new Credential(token.isEmpty() ? null : token, certificate, expiry);
    }

    /** Where in the output parsing failed, as " at line L, column C", or nothing when Jackson does not say. */
    private static String location(JacksonException e) {
        var where = e.getLocation();
        if (where == null || where.getLineNr() < 1) {
            return "";
        }
        return " at line " + where.getLineNr() + (where.getColumnNr() < 1 ? "" : ", column " + where.getColumnNr());
    }

    /** The cluster part of {@code KUBERNETES_EXEC_INFO} for {@code provideClusterInfo}. */
    static ObjectNode clusterInfo(String server, @Nullable String serverName, byte @Nullable [] caPem,
            boolean insecureSkipVerify) {
        ObjectNode cluster = JSON.createObjectNode();
        cluster.put("server", server);
        if (serverName != null) {
            cluster.put("tls-server-name", serverName);
        }
        if (caPem != null) {
            cluster.put("certificate-authority-data", Base64.getEncoder().encodeToString(caPem));
        }
        cluster.put("insecure-skip-tls-verify", insecureSkipVerify);
        return cluster;
    }
}
