package dev.operatorstarter.client.rest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.operatorstarter.client.config.ConfigException;
import dev.operatorstarter.client.config.Credentials;
import dev.operatorstarter.internal.Json;
import dev.operatorstarter.testing.FakeTimeSource;
import dev.operatorstarter.time.TimeSource;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/** The exec plugin protocol with real scripts: input, caching, expiry and a plugin that hangs. */
class ExecCredentialPluginTest {

    @TempDir
    Path temp;

    private ExecCredentialPlugin plugin(String body, TimeSource time, Duration timeout) throws Exception {
        Path script = Files.writeString(temp.resolve("plugin.sh"), "#!/bin/sh\n" + body);
        Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwx------"));
        Credentials.Exec exec = new Credentials.Exec("client.authentication.k8s.io/v1", script.toString(),
                List.of("--flag"), Map.of("STATE", temp.toString()), Credentials.InteractiveMode.IF_AVAILABLE, true, "",
                temp);
        return new ExecCredentialPlugin(exec, "kubeconfig test", time,
                ExecCredentialPlugin.clusterInfo("https://10.0.0.1:6443", "api.internal", null, false), timeout);
    }

    private static String credential(String expiry) {
        return "echo run >> \"$STATE/runs\"\n"
                + "printf '{\"apiVersion\":\"client.authentication.k8s.io/v1\",\"kind\":\"ExecCredential\","
                + "\"status\":{\"token\":\"t-%s\"" + (expiry == null ? "" : ",\"expirationTimestamp\":\"" + expiry + "\"")
                + "}}' \"$(wc -l < \"$STATE/runs\" | tr -d ' ')\"\n";
    }

    private int runs() throws Exception {
        return Files.readAllLines(temp.resolve("runs")).size();
    }

    @Test
    void thePluginReceivesExecInfoWithClusterAndNoInteractiveTerminal() throws Exception {
        ExecCredentialPlugin plugin = plugin("printf '%s' \"$KUBERNETES_EXEC_INFO\" > \"$STATE/info\"\n"
                + credential(null), TimeSource.system(), Duration.ofSeconds(30));

        plugin.credential();

        JsonNode info = Json.MAPPER.readTree(Files.readString(temp.resolve("info")));
        assertThat(info.path("apiVersion").asString()).isEqualTo("client.authentication.k8s.io/v1");
        assertThat(info.path("kind").asString()).isEqualTo("ExecCredential");
        assertThat(info.path("spec").path("interactive").asBoolean(true)).isFalse();
        assertThat(info.path("spec").path("cluster").path("server").asString()).isEqualTo("https://10.0.0.1:6443");
        assertThat(info.path("spec").path("cluster").path("tls-server-name").asString()).isEqualTo("api.internal");
    }

    @Test
    void aTokenIsCachedUntilItsExpiryAndThePluginRunsAgainAfterIt() throws Exception {
        Instant now = Instant.parse("2026-11-22T12:00:00Z");
        FakeTimeSource time = new FakeTimeSource();
        time.setWall(now);
        ExecCredentialPlugin plugin = plugin(credential("2026-11-22T12:05:00Z"), time, Duration.ofSeconds(30));

        String first = plugin.credential().token();
        String cached = plugin.credential().token();
        time.advance(Duration.ofMinutes(5));
        String afterExpiry = plugin.credential().token();

        assertThat(first).isEqualTo("t-1").isEqualTo(cached);
        assertThat(afterExpiry).isEqualTo("t-2");
        assertThat(runs()).isEqualTo(2);
    }

    @Test
    void invalidatingTheUsedTokenRunsThePluginAgainButAStaleInvalidationDoesNot() throws Exception {
        ExecCredentialPlugin plugin = plugin(credential(null), TimeSource.system(), Duration.ofSeconds(30));

        String first = plugin.credential().token();
        plugin.invalidate(first);
        String second = plugin.credential().token();
        plugin.invalidate(first); // a late 401 for the old token must not throw the new one away
        String stillSecond = plugin.credential().token();

        assertThat(second).isEqualTo("t-2").isEqualTo(stillSecond);
        assertThat(runs()).isEqualTo(2);
    }

    @Test
    void aPluginThatHangsIsStoppedAtTheDeadline() throws Exception {
        ExecCredentialPlugin plugin = plugin("sleep 60\n", TimeSource.system(), Duration.ofMillis(500));

        assertThatThrownBy(plugin::credential).isInstanceOf(ConfigException.class)
                .hasMessageContaining("did not finish within 500 ms");
    }

    @Test
    void aPluginWhoseChildKeepsTheOutputOpenAnswersWhenThePluginExits() throws Exception {
        // The stray child holds stdout and stderr for 30 s; reading to the end of the stream would wait for it.
        ExecCredentialPlugin plugin = plugin("sleep 30 &\n" + credential(null), TimeSource.system(),
                Duration.ofSeconds(20));

        String token = assertTimeoutPreemptively(Duration.ofSeconds(10), () -> plugin.credential().token());

        assertThat(token).isEqualTo("t-1");
    }

    @Test
    void aPluginThatWritesMoreThanAPipeHoldsIsNotBlockedAndItsWholeOutputIsRead() throws Exception {
        // 200 KiB of padding before the credential: a pipe holds 64 KiB, so the plugin finishes only if the
        // output is drained while it runs, and the credential is only whole if nothing was dropped.
        ExecCredentialPlugin plugin = plugin("head -c 204800 /dev/zero | tr '\\0' ' '\n" + credential(null),
                TimeSource.system(), Duration.ofSeconds(20));

        assertThat(plugin.credential().token()).isEqualTo("t-1");
    }

    @Test
    void aPluginAskingForATerminalIsRefused() throws Exception {
        Credentials.Exec exec = new Credentials.Exec("client.authentication.k8s.io/v1", "true", List.of(), Map.of(),
                Credentials.InteractiveMode.ALWAYS, false, "", temp);
        ExecCredentialPlugin plugin = new ExecCredentialPlugin(exec, "kubeconfig test", TimeSource.system(), null,
                Duration.ofSeconds(5));

        assertThatThrownBy(plugin::credential).hasMessageContaining("interactiveMode Always");
    }

    @Test
    void theArgumentsNeverShowInToString() {
        Credentials.Exec exec = new Credentials.Exec("client.authentication.k8s.io/v1", "kubelogin",
                List.of("--oidc-client-secret=hunter2"), Map.of("TOKEN", "secret"), Credentials.InteractiveMode.NEVER,
                false, "", temp);

        assertThat(exec.toString()).contains("kubelogin").doesNotContain("hunter2", "secret\"");
    }

    @Test
    void outputThatIsNotJsonIsLocatedByLineAndColumnButNeverQuoted() throws Exception {
        ExecCredentialPlugin plugin = plugin("printf '\\n  eyJhbGciOiJSUzI1NiJ9.secret-token-value\\n'\n", TimeSource.system(),
                Duration.ofSeconds(30));

        assertThatThrownBy(plugin::credential).isInstanceOf(ConfigException.class)
                .hasMessageStartingWith("exec credential plugin \"" + temp.resolve("plugin.sh") + "\" (kubeconfig test) "
                        + "printed output that is not valid JSON at line 2, column ")
                .hasMessageNotContaining("eyJhbGciOiJSUzI1NiJ9").hasMessageNotContaining("secret-token-value")
                .satisfies(e -> {
                    for (Throwable cause = e.getCause(); cause != null; cause = cause.getCause()) {
                        assertThat(cause.getMessage()).doesNotContain("secret-token-value");
                    }
                });
    }
}
