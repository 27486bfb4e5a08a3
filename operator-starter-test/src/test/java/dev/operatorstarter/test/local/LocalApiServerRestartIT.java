package dev.operatorstarter.test.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.operatorstarter.test.internal.KubernetesApi;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.ObjectNode;

/** Restarting kube-apiserver and compacting etcd under a running server, for the informers' recovery tests. */
class LocalApiServerRestartIT {

    private static LocalApiServer server;
    private static KubernetesApi api;

    @BeforeAll
    static void start() {
        server = LocalApiServer.start(LocalApiServerOptions.builder().apiServerArg("--watch-cache=false").build());
        api = KubernetesApi.of(server.connection().server(), server.connection().sslContext(), null);
    }

    @AfterAll
    static void stop() {
        if (server != null) {
            server.close();
        }
    }

    private static ObjectNode configMap(String name, String value) {
        ObjectNode body = KubernetesApi.object();
        body.put("apiVersion", "v1").put("kind", "ConfigMap");
        body.putObject("metadata").put("name", name);
        body.putObject("data").put("value", value);
        return body;
    }

    private static String create(String name, String value) {
        return api.post("/api/v1/namespaces/default/configmaps", configMap(name, value))
                .orThrow("create " + name).path("metadata").path("resourceVersion").asString();
    }

    @Test
    void theApiServerRestartsOnItsPortWithItsDataAndCredentials() {
        create("before-restart", "1");
        Map<String, Long> before = server.processIds();

        server.restartApiServer();

        Map<String, Long> after = server.processIds();
        assertThat(after.get("kube-apiserver")).isNotEqualTo(before.get("kube-apiserver"));
        assertThat(after.get("etcd")).isEqualTo(before.get("etcd"));
        assertThat(after.get("kube-controller-manager")).isEqualTo(before.get("kube-controller-manager"));
        assertThat(api.get("/api/v1/namespaces/default/configmaps/before-restart").orThrow("get")
                .path("data").path("value").asString()).isEqualTo("1");
        create("after-restart", "2");
    }

    @Test
    void afterACompactionOldResourceVersionsAreGone() {
        String old = create("compacted", "1");
        for (int i = 2; i <= 3; i++) {
            ObjectNode update = configMap("compacted", Integer.toString(i));
            api.put("/api/v1/namespaces/default/configmaps/compacted", update).orThrow("update");
        }

        long revision = server.compactEtcd();

        assertThat(revision).isGreaterThan(Long.parseLong(old));
        KubernetesApi.Response list = api.get("/api/v1/namespaces/default/configmaps?resourceVersion=" + old
                + "&resourceVersionMatch=Exact");
        assertThat(list.status()).as(list.rawBody()).isEqualTo(410);
        KubernetesApi.Response watch = api.get("/api/v1/namespaces/default/configmaps?watch=true&timeoutSeconds=5"
                + "&resourceVersion=" + old);
        // Without the watch cache the server answers 200 and ends the stream with an ERROR event (or 410 at once).
        assertThat(watch.status() == 410 || watch.rawBody().contains("\"type\":\"ERROR\"")
                && watch.rawBody().contains("\"code\":410")).as(watch.status() + " " + watch.rawBody()).isTrue();
    }

    @Test
    void extraFlagsMustBeFlags() {
        assertThatThrownBy(() -> LocalApiServerOptions.builder().apiServerArg("watch-cache=false").build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("--");
    }
}
