package dev.operatorstarter.client.rest;

import dev.operatorstarter.client.config.ConfigException;
import dev.operatorstarter.client.config.Credentials;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * Runs a kubeconfig exec credential plugin ({@code client.authentication.k8s.io/v1} or
 * {@code v1beta1}) and caches its token until its {@code expirationTimestamp}.
 *
 * <p>The plugin gets the client's environment plus its own {@code env} entries and
 * {@code KUBERNETES_EXEC_INFO} with {@code spec.interactive=false}: this client never has a
 * terminal, so a plugin whose {@code interactiveMode} is {@code Always} is refused with a clear
 * error. Standard input is closed. Failures name the plugin and the kubeconfig, and carry the end
 * of the plugin's standard error.
 */
final class ExecCredentialPlugin {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final long TIMEOUT_SECONDS = 120;
    private static final int STDERR_LIMIT = 4096;

    private final Credentials.Exec exec;
    private final String source;
    private final Clock clock;
    private final @Nullable ObjectNode clusterInfo;
    private @Nullable Credential cached;

    ExecCredentialPlugin(Credentials.Exec exec, String source, Clock clock, @Nullable ObjectNode clusterInfo) {
        this.exec = exec;
        this.source = source;
        this.clock = clock;
        this.clusterInfo = clusterInfo;
    }

    /** What the plugin returned: a token, and when it expires (null: never, until a 401). */
    record Credential(String token, @Nullable Instant expiry) {
        @Override
        public String toString() {
            return "Credential[<redacted>, expires " + expiry + "]";
        }
    }

    /** The cached credential, or a fresh one if there is none or it has expired. Blocks while the plugin runs. */
    synchronized Credential credential() {
        Credential current = cached;
        if (current == null || (current.expiry() != null && !clock.instant().isBefore(current.expiry()))) {
            current = run();
            cached = current;
        }
        return current;
    }

    /** Forgets the cached credential if it is {@code used}, so the next call runs the plugin again. */
    synchronized void invalidate(String usedToken) {
        if (cached != null && cached.token().equals(usedToken)) {
            cached = null;
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
        ProcessBuilder builder = new ProcessBuilder(command).directory(exec.workingDirectory().toFile());
        builder.environment().putAll(exec.env());
        builder.environment().put("KUBERNETES_EXEC_INFO", execInfo());
        Process process;
        try {
            process = builder.start();
        } catch (IOException e) {
            throw new ConfigException(name + " cannot be started: " + e.getMessage()
                    + (exec.installHint().isBlank() ? "" : "\n" + exec.installHint()), e);
        }
        try {
            process.getOutputStream().close();
            CompletableFuture<byte[]> stderr = CompletableFuture.supplyAsync(() -> readLimited(process.getErrorStream()));
            byte[] stdout = process.getInputStream().readAllBytes();
            if (!process.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new ConfigException(name + " did not finish within " + TIMEOUT_SECONDS + " s");
            }
            String errors = new String(stderr.get(5, TimeUnit.SECONDS), StandardCharsets.UTF_8).strip();
            if (process.exitValue() != 0) {
                throw new ConfigException(name + " exited with code " + process.exitValue()
                        + (errors.isEmpty() ? "" : "; its standard error ends with:\n" + errors));
            }
            return parse(stdout, name);
        } catch (IOException | ExecutionException | java.util.concurrent.TimeoutException e) {
            process.destroyForcibly();
            throw new ConfigException(name + " failed: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new ConfigException(name + " was interrupted", e);
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
            throw new ConfigException(name + " printed output that is not valid JSON: " + e.getOriginalMessage(), e);
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
        if (token.isEmpty()) {
            if (status.hasNonNull("clientCertificateData")) {
                throw new ConfigException(name + " returned a client certificate; this client accepts tokens from "
                        + "exec plugins (client certificates from plugins are not supported yet)");
            }
            throw new ConfigException(name + " printed an ExecCredential without status.token");
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
        return new Credential(token, expiry);
    }

    private static byte[] readLimited(InputStream in) {
        ByteArrayOutputStream tail = new ByteArrayOutputStream();
        byte[] buffer = new byte[4096];
        try (in) {
            int read;
            while ((read = in.read(buffer)) >= 0) {
                tail.write(buffer, 0, read);
                if (tail.size() > STDERR_LIMIT * 2) {
                    byte[] all = tail.toByteArray();
                    tail.reset();
                    tail.write(all, all.length - STDERR_LIMIT, STDERR_LIMIT);
                }
            }
        } catch (IOException e) {
            // the plugin closed its standard error early: keep what was read
        }
        byte[] all = tail.toByteArray();
        if (all.length <= STDERR_LIMIT) {
            return all;
        }
        byte[] end = new byte[STDERR_LIMIT];
        System.arraycopy(all, all.length - STDERR_LIMIT, end, 0, STDERR_LIMIT);
        return end;
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
