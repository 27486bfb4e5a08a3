package dev.operatorstarter.client.discovery;

import static org.assertj.core.api.Assertions.assertThat;

import dev.operatorstarter.client.config.ClientConfig;
import dev.operatorstarter.client.config.Credentials;
import dev.operatorstarter.client.config.TlsSettings;
import dev.operatorstarter.client.rest.ClientOptions;
import dev.operatorstarter.client.rest.RestClient;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import com.sun.net.httpserver.HttpServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Discovery against a server without aggregated discovery (older servers, some proxies), where
 * one group version fails: the others are still found. A real 1.37 server always aggregates, so
 * this plays the old documents in process.
 */
class LegacyDiscoveryTest {

    private HttpServer server;
    private final List<String> paths = new CopyOnWriteArrayList<>();

    @AfterEach
    void stop() {
        server.stop(0);
    }

    private RestClient start() throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", exchange -> {
            String path = exchange.getRequestURI().getPath();
            paths.add(path);
            String body;
            int code = 200;
            switch (path) {
                case "/api" -> body = "{\"kind\":\"APIVersions\",\"versions\":[\"v1\"]}";
                case "/apis" -> body = "{\"kind\":\"APIGroupList\",\"groups\":["
                        + "{\"name\":\"apps\",\"versions\":[{\"groupVersion\":\"apps/v1\",\"version\":\"v1\"}]},"
                        + "{\"name\":\"metrics.k8s.io\",\"versions\":[{\"groupVersion\":\"metrics.k8s.io/v1beta1\","
                        + "\"version\":\"v1beta1\"}]},"
                        + "{\"name\":\"secret.example\",\"versions\":[{\"groupVersion\":\"secret.example/v1\","
                        + "\"version\":\"v1\"}]}]}";
                case "/api/v1" -> body = "{\"kind\":\"APIResourceList\",\"groupVersion\":\"v1\",\"resources\":["
                        + "{\"name\":\"pods\",\"kind\":\"Pod\",\"namespaced\":true,\"verbs\":[\"get\",\"list\"]},"
                        + "{\"name\":\"pods/status\",\"kind\":\"Pod\",\"namespaced\":true,\"verbs\":[\"get\"]},"
                        + "{\"name\":\"nodes\",\"kind\":\"Node\",\"namespaced\":false,\"verbs\":[\"get\"]}]}";
                case "/apis/apps/v1" -> body = "{\"kind\":\"APIResourceList\",\"groupVersion\":\"apps/v1\",\"resources\":["
                        + "{\"name\":\"deployments\",\"kind\":\"Deployment\",\"namespaced\":true,\"verbs\":[\"get\"]},"
                        + "{\"name\":\"deployments/scale\",\"kind\":\"Scale\",\"namespaced\":true,\"verbs\":[\"get\"]}]}";
                case "/apis/metrics.k8s.io/v1beta1" -> {
                    code = 503;
                    body = "{\"kind\":\"Status\",\"code\":503,\"reason\":\"ServiceUnavailable\"}";
                }
                default -> {
                    code = 403;
                    body = "{\"kind\":\"Status\",\"code\":403,\"reason\":\"Forbidden\"}";
                }
            }
            byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(code, bytes.length);
            try (InputStream in = exchange.getRequestBody(); OutputStream out = exchange.getResponseBody()) {
                in.readAllBytes();
                out.write(bytes);
            }
        });
        server.start();
        URI uri = URI.create("http://127.0.0.1:" + server.getAddress().getPort());
        return RestClient.create(new ClientConfig(uri, TlsSettings.defaults(), Credentials.none(), null, "default",
                "test"), ClientOptions.builder().maxRetries(0).build());
    }

    @Test
    void readsEveryGroupVersionAndLeavesOutTheOnesThatFail() throws Exception {
        try (RestClient rest = start()) {
            DiscoveryClient discovery = DiscoveryClient.create(rest);

            List<ApiResource> resources = discovery.resources();

            assertThat(resources).extracting(ApiResource::resource).containsExactlyInAnyOrder("pods", "nodes",
                    "deployments");
            assertThat(discovery.findKind("v1", "Pod")).hasValueSatisfying(pod -> {
                assertThat(pod.namespaced()).isTrue();
                assertThat(pod.subresources()).containsExactly("status");
            });
            assertThat(discovery.findKind("apps/v1", "Deployment").orElseThrow().subresources()).containsExactly("scale");
            assertThat(discovery.groupVersions()).containsExactly("v1", "apps/v1");
        }
    }

    @Test
    void aMissRefreshesAtMostOnceASecond() throws Exception {
        try (RestClient rest = start()) {
            DiscoveryClient discovery = DiscoveryClient.create(rest);
            discovery.resources();
            int afterFirstFetch = paths.size();

            for (int i = 0; i < 20; i++) {
                assertThat(discovery.findKind("example.com/v1", "Unknown")).isEmpty();
            }

            assertThat(paths.size() - afterFirstFetch).as("requests made by 20 quick misses")
                    .isLessThanOrEqualTo(afterFirstFetch);
        }
    }
}
