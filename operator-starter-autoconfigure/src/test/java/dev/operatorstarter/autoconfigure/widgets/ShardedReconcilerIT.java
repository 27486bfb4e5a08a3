package dev.operatorstarter.autoconfigure.widgets;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.operatorstarter.autoconfigure.Widget;
import dev.operatorstarter.cache.Lister;
import dev.operatorstarter.client.KubernetesClient;
import dev.operatorstarter.client.ResourceClient;
import dev.operatorstarter.client.config.KubeconfigLoader;
import dev.operatorstarter.client.rest.PatchType;
import dev.operatorstarter.sharding.HashRing;
import dev.operatorstarter.sharding.Sharding;
import dev.operatorstarter.test.ClusterConnection;
import dev.operatorstarter.test.KubernetesTest;
import dev.operatorstarter.test.TestNamespace;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.HasMetadata;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.availability.ApplicationAvailability;
import org.springframework.boot.availability.LivenessState;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.ResolvableType;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Sharding in whole applications on the real API server: two replicas of the widget operator with
 * {@code operator.sharding.enabled}, each caching and reconciling only the widgets (and the owned
 * ConfigMaps) the ring gives it, the ring shown by {@code /actuator/operator}, the health and the
 * {@code controller_sharding_*} metrics; a
 * replica whose member Lease is deleted under it closes itself, and the other one takes its widgets.
 */
@KubernetesTest(crds = "crds/widgets.yaml")
class ShardedReconcilerIT {

    private static final Duration WAIT = Duration.ofSeconds(60);
    // HTTP/1.1 as the kubelet and Prometheus speak it (no h2c upgrade), and a deadline on every call
    private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(10)).build();
    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final int WIDGETS = 24;

    private final List<ConfigurableApplicationContext> replicas = new ArrayList<>();

    @AfterEach
    void closeReplicas() {
        replicas.forEach(ConfigurableApplicationContext::close);
    }

    private ConfigurableApplicationContext replica(ClusterConnection connection, TestNamespace namespace, String ring) {
        ConfigurableApplicationContext replica = new SpringApplicationBuilder(WidgetOperatorApplication.class)
                .properties("operator.client.kubeconfig=" + connection.kubeconfig(), "server.port=0",
                        "spring.application.name=widget-shards",
                        "management.endpoints.web.exposure.include=health,operator,prometheus",
                        "management.endpoint.health.show-details=always",
                        "operator.informers.namespaces=" + namespace.name(),
                        "operator.leader-election.lease-namespace=" + namespace.name(),
                        "operator.leader-election.lease-name=" + ring + "-leader",
                        // short, for the test (the chaos test's): a lost member is noticed in seconds
                        "operator.leader-election.lease-duration=2s", "operator.leader-election.renew-deadline=1500ms",
                        "operator.leader-election.retry-period=300ms", "operator.controllers.shutdown-timeout=5s",
                        "operator.sharding.enabled=true", "operator.sharding.ring-name=" + ring)
                .run();
        replicas.add(replica);
        return replica;
    }

    @Test
    void eachReplicaCachesAndReconcilesOnlyTheWidgetsTheRingGivesIt(ClusterConnection connection,
            TestNamespace namespace) throws Exception {
        String ring = "widgets-" + UUID.randomUUID().toString().substring(0, 8);
        try (KubernetesClient admin = KubernetesClient.create(KubeconfigLoader.load(connection.kubeconfig(), null))) {
            ResourceClient<Widget> widgets = admin.resources(Widget.class).inNamespace(namespace.name());
            IntStream.range(0, WIDGETS).forEach(i -> widgets.create(Widget.named("w" + i, "blue")));
            ConfigurableApplicationContext first = replica(connection, namespace, ring);
            ConfigurableApplicationContext second = replica(connection, namespace, ring);
            String token = first.getBean(Sharding.class).labels().token();
            Set<String> shards = Set.of(shardOf(first), shardOf(second));
            assertThat(shards).hasSize(2); // the default shard ids are new per process, even on one host

            // every widget is given to one of the two (the first to join may have had them all, and let
            // the second's share go by drains), with its owned ConfigMap, and reconciled there
            String drain = first.getBean(Sharding.class).labels().drain();
            // both hold widgets before the move is done (a widget assigned to the second while another still waits
            // for its drain): the shares are settled once each widget is where the ring of the two puts it
            HashRing hashRing = HashRing.of(shards, 100); // the starter's default of virtual nodes
            Map<String, TreeSet<String>> given = await().atMost(WAIT).until(() -> shares(widgets.list().items(),
                    token, drain), shares -> shares.keySet().equals(shards) // 2 of 2^24 rings leave one empty
                            && shares.entrySet().stream().allMatch(share -> share.getValue().stream().allMatch(name ->
                                    hashRing.ownerOf(namespace.name() + "/" + name).orElseThrow()
                                            .equals(share.getKey()))));
            await().atMost(WAIT).until(() -> widgets.list().items().stream().allMatch(widget ->
                    "Ready".equals(phase(widget))));
            for (Widget widget : widgets.list().items()) {
                ConfigMap colour = admin.coreV1().configMaps().inNamespace(namespace.name())
                        .get(widget.getMetadata().getName() + "-colour");
                assertThat(label(colour, token)).as("the owned ConfigMap follows its widget")
                        .isEqualTo(label(widget, token));
            }
            for (ConfigurableApplicationContext replica : List.of(first, second)) {
                await().atMost(WAIT).untilAsserted(() -> assertThat(names(widgetLister(replica).list()))
                        .as("the widgets %s caches", shardOf(replica)).isEqualTo(given.get(shardOf(replica))));
            }

            // the ring, as /actuator/operator and the health show it
            ConfigurableApplicationContext leader = await().atMost(WAIT).until(() -> replicas.stream()
                    .filter(replica -> operator(replica).path("sharding").path("assigner").asBoolean())
                    .findFirst().orElse(null), Objects::nonNull);
            ConfigurableApplicationContext follower = leader == first ? second : first;
            JsonNode seen = await().atMost(WAIT).until(() -> operator(leader).path("sharding"), sharding ->
                    sharding.path("members").size() == 2 && sum(sharding.path("members")) == WIDGETS);
            assertThat(seen.path("enabled").asBoolean()).isTrue();
            assertThat(seen.path("ring").asString()).isEqualTo(ring);
            assertThat(seen.path("shard").asString()).isEqualTo(shardOf(leader));
            assertThat(seen.path("phase").asString()).isEqualTo("MEMBER");
            assertThat(seen.path("lease").asString()).isEqualTo(namespace.name() + "/" + ring + "-" + shardOf(leader));
            assertThat(seen.path("controllers").get(0).asString()).isEqualTo("widget");
            assertThat(seen.path("members").valueStream().map(member -> member.path("state").asString()))
                    .containsOnly("READY");
            assertThat(seen.path("unassigned").asInt()).isZero();
            JsonNode followerView = operator(follower).path("sharding");
            assertThat(followerView.path("assigner").asBoolean()).isFalse();
            assertThat(followerView.path("members").get(0).path("objects").isNumber()).isFalse(); // only the assigner counts
            assertThat(operator(follower).path("controllers").get(0).path("sharded").asBoolean()).isTrue();
            JsonNode health = JSON.readTree(get(follower, "/actuator/health").body()).path("components");
            assertThat(health.path("sharding").path("status").asString()).isEqualTo("UP");
            assertThat(health.path("sharding").path("details").path("ring").asString()).isEqualTo(ring);
            assertThat(health.path("sharding").path("details").path("members").path("READY").asInt()).isEqualTo(2);
            assertThat(health.path("controllers").path("details").path("member").asBoolean()).isTrue();

            // the controller_sharding_* metrics: each replica's share and membership, the members on the leader
            for (ConfigurableApplicationContext replica : List.of(first, second)) {
                String scrape = get(replica, "/actuator/prometheus").body();
                assertThat(scrape).contains("controller_sharding_member_status{ring=\"" + ring + "\"} 1.0")
                        .contains("controller_sharding_objects{controller=\"widget\",ring=\"" + ring + "\"} "
                                + given.get(shardOf(replica)).size() + ".0");
            }
            assertThat(get(leader, "/actuator/prometheus").body())
                    .contains("controller_sharding_members{ring=\"" + ring + "\",state=\"ready\"} 2.0")
                    .contains("controller_sharding_unassigned_objects{resource=\"widgets.starter.operatorstarter.dev\","
                            + "ring=\"" + ring + "\"} 0.0");

            // a member whose Lease is deleted under it may have been declared dead: it closes itself,
            // and the other replica takes its widgets once the ring has waited out its lease
            String victim = shardOf(follower);
            ApplicationAvailability availability = follower.getBean(ApplicationAvailability.class);
            admin.coordinationV1().leases().inNamespace(namespace.name()).delete(ring + "-" + victim);
            await().atMost(WAIT).until(() -> !follower.isActive());
            assertThat(availability.getLivenessState())
                    .isEqualTo(LivenessState.BROKEN);
            String survivor = shardOf(leader);
            await().atMost(WAIT).until(() -> widgets.list().items().stream()
                    .allMatch(widget -> survivor.equals(label(widget, token))));
            String moved = given.get(victim).first();
            widgets.patch(moved, PatchType.MERGE, Map.of("spec", Map.of("colour", "red")));
            await().atMost(WAIT).until(() -> "red".equals(admin.coreV1().configMaps().inNamespace(namespace.name())
                    .get(moved + "-colour").getData().get("colour")));
            assertThat(names(widgetLister(leader).list())).hasSize(WIDGETS);
        }
    }

    /**
     * The widgets by the shard their token names; a widget without a token or asked to drain is
     * under {@code ""}, so the map's keys are the shards only once every widget is settled with one.
     */
    private static Map<String, TreeSet<String>> shares(List<Widget> widgets, String token, String drain) {
        return widgets.stream().collect(Collectors.groupingBy(widget -> label(widget, drain).isEmpty()
                ? label(widget, token) : "", Collectors.mapping(widget -> widget.getMetadata().getName(),
                        Collectors.toCollection(TreeSet::new))));
    }

    private static String shardOf(ConfigurableApplicationContext replica) {
        return replica.getBean(Sharding.class).shardId();
    }

    @SuppressWarnings("unchecked")
    private static Lister<Widget> widgetLister(ConfigurableApplicationContext replica) {
        return (Lister<Widget>) replica.getBeanProvider(ResolvableType.forClassWithGenerics(Lister.class, Widget.class))
                .getObject();
    }

    private static String label(HasMetadata object, String key) {
        Map<String, String> labels = object.getMetadata().getLabels();
        return labels == null ? "" : labels.getOrDefault(key, "");
    }

    private static String phase(Widget widget) {
        return widget.getStatus() == null ? "" : String.valueOf(widget.getStatus().get("phase"));
    }

    private static Set<String> names(List<? extends HasMetadata> objects) {
        return objects.stream().map(object -> object.getMetadata().getName()).collect(Collectors.toCollection(TreeSet::new));
    }

    private static int sum(JsonNode members) {
        return members.valueStream().mapToInt(member -> member.path("objects").asInt()).sum();
    }

    private static JsonNode operator(ConfigurableApplicationContext replica) {
        try {
            return JSON.readTree(get(replica, "/actuator/operator").body());
        } catch (IOException e) {
            throw new IllegalStateException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static HttpResponse<String> get(ConfigurableApplicationContext replica, String path)
            throws IOException, InterruptedException {
        String port = replica.getEnvironment().getProperty("local.server.port");
        return HTTP.send(HttpRequest.newBuilder(URI.create("http://localhost:" + port + path)).timeout(Duration.ofSeconds(10)).build(),
                HttpResponse.BodyHandlers.ofString());
    }
}
