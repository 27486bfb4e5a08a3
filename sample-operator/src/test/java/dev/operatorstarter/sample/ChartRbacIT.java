package dev.operatorstarter.sample;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.awaitility.Awaitility.await;

import dev.operatorstarter.autoconfigure.MissingPermissionsException;
import dev.operatorstarter.autoconfigure.local.DeploymentPod;
import dev.operatorstarter.client.KubernetesClient;
import dev.operatorstarter.client.rest.ApiException;
import dev.operatorstarter.client.PatchOptions;
import dev.operatorstarter.client.ResourceClient;
import dev.operatorstarter.client.config.KubeconfigLoader;
import dev.operatorstarter.client.rest.PatchType;
import dev.operatorstarter.controller.Conditions;
import dev.operatorstarter.leaderelection.LeaderElectionRecord;
import dev.operatorstarter.sharding.ShardLabels;
import dev.operatorstarter.sharding.Sharding;
import dev.operatorstarter.test.ClusterConnection;
import dev.operatorstarter.test.KubernetesTest;
import dev.operatorstarter.test.TestNamespace;
import dev.operatorstarter.webhook.AdmissionVerdict;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.api.model.coordination.v1.LeaseBuilder;
import io.fabric8.kubernetes.api.model.events.v1.Event;
import io.fabric8.kubernetes.api.model.rbac.PolicyRule;
import io.fabric8.kubernetes.api.model.rbac.Role;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.diagnostics.FailureAnalyzer;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.io.support.SpringFactoriesLoader;

/**
 * The Helm chart installed into the real API server by Helm, and the sample operator run as the
 * chart's ServiceAccount: with a real token from the TokenRequest API, the in-cluster configuration
 * code path (token, CA and namespace files, {@code KUBERNETES_SERVICE_HOST/PORT}) and the
 * environment the chart gives the pod. A full reconcile, leader election and the finalizer succeed
 * with the chart's permissions; with one rule taken out of the installed role, the operator names
 * the refused verb and resource. Sharded, two replicas as that ServiceAccount join the ring, assign,
 * reconcile and clear out dead members with the chart's member-Lease rule, and do not start without it.
 *
 * <p>The releases install with {@code crds.install=false}: the CRD is cluster-wide and the other
 * tests of this JVM install it too, without Helm's ownership labels. {@code ChartCrdIT} installs,
 * upgrades and uninstalls the chart's CRD.
 */
@KubernetesTest(crds = Examples.CRD)
@ExtendWith(OutputCaptureExtension.class)
class ChartRbacIT {

    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final Duration SYNC = Duration.ofSeconds(10);
    private static final String CHART = "sample-operator";
    /**
     * Sharding on, with the short lease of the starter's sharding tests (a member is judged within
     * seconds) and an orphan TTL of 5 s instead of a minute, set through {@code extraEnv} as an
     * operator would set it, watching the test's namespace (also the chart's default,
     * the release namespace, named here so that no later default can widen it): cluster-wide, the
     * shards would also take the sites other cases left behind under RBAC they broke on purpose (a
     * "refused" site's status patch failed in a full build), and count those errors as theirs.
     */
    private static Map<String, Object> sharded(TestNamespace namespace) {
        return Map.of("sharding.enabled", true, "replicaCount", 2, "watchNamespaces[0]", namespace.name(),
                "leaderElection.leaseDuration", "2s", "leaderElection.renewDeadline", "1500ms",
                "leaderElection.retryPeriod", "300ms", "extraEnv[0].name", "OPERATOR_SHARDING_ORPHANTTL",
                "extraEnv[0].value", "5s");
    }

    private static KubernetesClient admin;
    private final Deque<AutoCloseable> cleanUp = new ArrayDeque<>(); // closed last first

    @BeforeAll
    static void connect(ClusterConnection connection) {
        admin = KubernetesClient.create(KubeconfigLoader.load(connection.kubeconfig(), null));
    }

    @AfterAll
    static void disconnect() {
        admin.close();
    }

    @AfterEach
    void cleanUp() throws Exception {
        while (!cleanUp.isEmpty()) {
            cleanUp.pop().close();
        }
    }

    @Test
    void asTheChartsServiceAccountTheOperatorReconcilesLeadsAndFinalizes(ClusterConnection connection,
            TestNamespace namespace, @TempDir Path folder) throws Exception {
        String release = install(connection, namespace, Map.of("replicaCount", 2));
        String fullname = release + "-" + CHART;

        ConfigurableApplicationContext operator = run(connection, namespace, folder, fullname, SYNC);

        assertThat(operator.getBean(KubernetesClient.class).config().source()).startsWith("in-cluster");
        ResourceClient<StaticSite> sites = admin.resources(StaticSite.class).inNamespace(namespace.name());
        sites.create(StaticSite.of("charted", 1, Map.of("index.html", "<h1>charted</h1>")));
        StaticSiteStatus status = awaitStatus(sites, "charted", s -> s.observedGeneration() != null);
        assertThat(Conditions.isTrue(status.conditions(), StaticSiteStatus.PROGRESSING)).isTrue();
        assertThat(admin.coreV1().configMaps().inNamespace(namespace.name()).find("charted-content")).isPresent();
        assertThat(admin.coreV1().services().inNamespace(namespace.name()).find("charted")).isPresent();
        Deployment deployment = admin.appsV1().deployments().inNamespace(namespace.name()).get("charted");
        await().atMost(WAIT).until(() -> admin.eventsV1().events().inNamespace(namespace.name()).list().items().stream()
                .map(Event::getReason).anyMatch("Applied"::equals));
        ResourceClient<ConfigMap> releaseConfigMaps = admin.coreV1().configMaps().inNamespace(namespace.name());
        await().atMost(WAIT).until(() -> releaseConfigMaps.find(fullname + "-sites")
                .map(index -> index.getData().containsKey(namespace.name() + "_charted")).orElse(false));
        Lease lease = admin.coordinationV1().leases().inNamespace(namespace.name()).get(fullname + "-leader");
        assertThat(lease.getSpec().getHolderIdentity()).isNotBlank();

        WebServerPods.runReady(admin, namespace.name(), deployment, 1);
        admin.appsV1().deployments().inNamespace(namespace.name()).patchStatus("charted", PatchType.MERGE,
                Map.of("status", Map.of("observedGeneration", deployment.getMetadata().getGeneration(), "replicas", 1,
                        "updatedReplicas", 1, "readyReplicas", 1, "availableReplicas", 1)), PatchOptions.none());
        awaitStatus(sites, "charted", s -> Conditions.isTrue(s.conditions(), StaticSiteStatus.READY));

        sites.delete("charted");
        await().atMost(WAIT).until(() -> sites.find("charted").isEmpty());
        assertThat(releaseConfigMaps.get(fullname + "-sites").getData()).doesNotContainKey(namespace.name() + "_charted");
        MeterRegistry meters = operator.getBean(MeterRegistry.class);
        assertThat(meters.get("controller.runtime.reconcile.errors").counter().count())
                .as("no reconcile was refused").isZero();
    }

    @Test
    @Timeout(60) // the sync timeout is 5 minutes: only the permission check can end start-up in time
    void withoutTheDeploymentsRuleTheOperatorDoesNotStartAndNamesTheMissingRuleAsYaml(
            ClusterConnection connection, TestNamespace namespace, @TempDir Path folder) throws Exception {
        String release = install(connection, namespace, Map.of());
        String fullname = release + "-" + CHART;
        removeFromRole(namespace.name(), fullname + "-reconcile", rule -> rule.getResources().contains("deployments"));

        long starting = System.nanoTime();
        Throwable failure = catchThrowable(() -> run(connection, namespace, folder, fullname, Duration.ofMinutes(5)));
        long tookMillis = Duration.ofNanos(System.nanoTime() - starting).toMillis();

        String identity = "system:serviceaccount:" + namespace.name() + ":" + fullname;
        assertThat(failure).hasRootCauseInstanceOf(MissingPermissionsException.class);
        FailureAnalysis analysis = analyze(failure);
        assertThat(analysis.getDescription()).contains(identity + " (the credentials of in-cluster")
                .contains("may not do 5 things the operator needs:\nin namespace " + namespace.name())
                .endsWith("\n  # owned deployments: cached, created and patched (controller staticsite)\n"
                        + "  - apiGroups: [\"apps\"]\n    resources: [\"deployments\"]\n"
                        + "    verbs: [\"get\", \"list\", \"watch\", \"create\", \"patch\"]");
        assertThat(analysis.getAction()).contains("Add the rules above to the Role (or ClusterRole) bound to " + identity);
        System.out.printf("start-up failed on the missing deployments rule after %d ms (sync timeout 5 min)%n",
                tookMillis);
    }

    @Test
    void withoutPatchOnTheStatusTheReconcileFailsNamingTheVerbAndTheSubresource(ClusterConnection connection,
            TestNamespace namespace, @TempDir Path folder, CapturedOutput output) throws Exception {
        // without the start-up check, which would refuse to start (the case above): what a reconcile says
        String release = install(connection, namespace, Map.of("extraEnv[0].name", "OPERATOR_PERMISSIONCHECK_ENABLED",
                "extraEnv[0].value", "no")); // "false" would reach the Deployment as a YAML boolean
        String fullname = release + "-" + CHART;
        removeFromRole(namespace.name(), fullname + "-reconcile",
                rule -> rule.getResources().contains("staticsites/status"));
        run(connection, namespace, folder, fullname, SYNC);

        admin.resources(StaticSite.class).inNamespace(namespace.name())
                .create(StaticSite.of("refused", 1, Map.of("index.html", "<h1>refused</h1>")));

        String identity = "system:serviceaccount:" + namespace.name() + ":" + fullname;
        await().atMost(WAIT).until(() -> output.getOut().contains("reconcile of " + namespace.name() + "/refused failed"));
        assertThat(output.getOut()).contains("User \"" + identity + "\" cannot patch resource \"staticsites/status\" "
                + "in API group \"sample.operatorstarter.dev\" in the namespace \"" + namespace.name() + "\"");
        assertThat(admin.resources(StaticSite.class).inNamespace(namespace.name()).get("refused").getStatus()).isNull();
    }

    @Test
    void shardedTwoReplicasAsTheChartsServiceAccountJoinTheRingAssignReconcileAndClearOutDeadMembers(
            ClusterConnection connection, TestNamespace namespace, @TempDir Path folder) throws Exception {
        String release = install(connection, namespace, sharded(namespace));
        String fullname = release + "-" + CHART;
        String ring = fullname; // the chart's default
        ResourceClient<Lease> leases = admin.coordinationV1().leases().inNamespace(namespace.name());
        // members of earlier processes: one that died holding its Lease, one that released it
        Lease died = leases.create(memberLease(ring, "died-0a0a0a", "died-0a0a0a"));
        Lease released = leases.create(memberLease(ring, "released-0b0b0b", ""));

        // Watched from before the replicas start: the leader takes the Lease that is not renewed (update)
        // and deletes it once the orphan TTL has passed, maybe before the second replica is even up.
        AtomicReference<Lease> takenSeen = new AtomicReference<>();
        ScheduledExecutorService watcher = Executors.newSingleThreadScheduledExecutor();
        cleanUp.push(watcher::shutdownNow);
        watcher.scheduleWithFixedDelay(() -> {
            try {
                leases.find(name(died)).filter(lease -> lease.getSpec().getHolderIdentity().startsWith("assigner:"))
                        .ifPresent(lease -> takenSeen.compareAndSet(null, lease));
            } catch (RuntimeException retried) {
                // the next poll asks again
            }
        }, 0, 20, TimeUnit.MILLISECONDS);

        List<ConfigurableApplicationContext> replicas = List.of(
                run(connection, namespace, Files.createDirectory(folder.resolve("a")), fullname, SYNC),
                run(connection, namespace, Files.createDirectory(folder.resolve("b")), fullname, SYNC));

        Map<String, ConfigurableApplicationContext> byShard = replicas.stream().collect(Collectors.toMap(
                replica -> replica.getBean(Sharding.class).shardId(), Function.identity()));
        Set<String> shards = byShard.keySet();
        assertThat(shards).as("a shard id per process, even on one host").hasSize(2);
        assertThat(replicas.get(0).getBean(Sharding.class).ring()).isEqualTo(ring);
        // each replica creates and renews its own member Lease (create, update), the leader labels it (patch)
        for (String shard : shards) {
            await().atMost(WAIT).until(() -> leases.find(ShardLabels.leaseName(ring, shard)).orElse(null), lease ->
                    lease != null && shard.equals(lease.getSpec().getHolderIdentity())
                            && "ready".equals(label(lease, ShardLabels.STATE_LABEL)));
        }
        // the leader took the Lease that was not renewed (update) before the orphan TTL ended
        Lease taken = await().atMost(WAIT).until(takenSeen::get, Objects::nonNull);
        String leader = shards.stream().filter(shard -> byShard.get(shard).getBean(Sharding.class).status().assigner())
                .findFirst().orElseThrow();
        assertThat(taken.getSpec().getHolderIdentity()).isEqualTo("assigner:" + leader);
        assertThat(label(taken, ShardLabels.STATE_LABEL)).isEqualTo("dead");

        ResourceClient<StaticSite> sites = admin.resources(StaticSite.class).inNamespace(namespace.name());
        sites.create(StaticSite.of("charted", 1, Map.of("index.html", "<h1>charted</h1>")));
        StaticSiteStatus status = awaitStatus(sites, "charted", s -> s.observedGeneration() != null);
        assertThat(Conditions.isTrue(status.conditions(), StaticSiteStatus.PROGRESSING)).isTrue();
        String token = byShard.values().iterator().next().getBean(Sharding.class).labels().token();
        String holder = label(sites.get("charted"), token);
        assertThat(holder).as("the site's shard").isIn(shards);
        // the shard's reconcile created the site's objects with its token (copied from the site)
        String in = namespace.name();
        assertThat(Stream.of(admin.coreV1().configMaps().inNamespace(in).get("charted-content"),
                admin.coreV1().services().inNamespace(in).get("charted"),
                admin.appsV1().deployments().inNamespace(in).get("charted")).map(object -> label(object, token)))
                .as("the site's ConfigMap, Service and Deployment").containsOnly(holder);
        // the other shard's validating webhook counts the site it does not hold (a list as the ServiceAccount)
        String other = shards.stream().filter(shard -> !shard.equals(holder)).findFirst().orElseThrow();
        AdmissionVerdict crowded = byShard.get(other).getBean(StaticSiteValidator.class)
                .validate(StaticSiteValidatorTest.creating(namespace.name(), "crowded", 20));
        assertThat(crowded.message()).contains("the 1 other asks for 1,");

        sites.delete("charted");
        await().atMost(WAIT).until(() -> sites.find("charted").isEmpty());
        // the dead members' Leases are deleted once the orphan TTL passed (delete)
        await().atMost(WAIT).until(() -> leases.find(name(died)).isEmpty() && leases.find(name(released)).isEmpty());
        // the chart's admission policy: the ServiceAccount writes no Lease but the leader's and its ring's
        ResourceClient<Lease> asOperator = byShard.get(leader).getBean(KubernetesClient.class).coordinationV1().leases()
                .inNamespace(namespace.name());
        Throwable refused = await().atMost(WAIT).until(() -> {
            try {
                asOperator.create(new LeaseBuilder().withNewMetadata().withName("intruder").endMetadata().build());
            } catch (ApiException.Forbidden expected) {
                return expected;
            }
            leases.delete("intruder"); // in before the policy was loaded: undo, and try again
            return null;
        }, failure -> failure != null);
        assertThat(refused).hasMessageContaining("the operator may write only its leader Lease and the member Leases of its ring");
        assertThatThrownBy(() -> asOperator.create(new LeaseBuilder().withNewMetadata()
                .withName(ShardLabels.leaseName(ring, "unlabelled")).endMetadata().build()))
                .as("a member's name without the ring's label").isInstanceOf(ApiException.Forbidden.class);
        Lease foreign = leases.create(new LeaseBuilder().withNewMetadata().withName("foreign").endMetadata().build());
        foreign.getMetadata().setLabels(Map.of(ShardLabels.RING_LABEL, ring));
        assertThatThrownBy(() -> asOperator.update(foreign)).isInstanceOf(ApiException.Forbidden.class);
        assertThatThrownBy(() -> asOperator.delete("foreign")).isInstanceOf(ApiException.Forbidden.class);
        for (ConfigurableApplicationContext replica : replicas) {
            assertThat(replica.getBean(MeterRegistry.class).find("controller.runtime.reconcile.errors").counters()
                    .stream().mapToDouble(Counter::count).sum()).as("no reconcile was refused").isZero();
        }
    }

    @Test
    @Timeout(60)
    void shardedWithoutTheMemberLeasesRuleTheOperatorDoesNotStartAndNamesLeases(ClusterConnection connection,
            TestNamespace namespace, @TempDir Path folder) throws Exception {
        String release = install(connection, namespace, sharded(namespace));
        String fullname = release + "-" + CHART;
        removeFromRole(namespace.name(), fullname, rule -> rule.getResources().contains("leases")
                && rule.getResourceNames().isEmpty() && rule.getVerbs().contains("list"));

        Throwable failure = catchThrowable(() -> run(connection, namespace, folder, fullname, Duration.ofMinutes(5)));

        String identity = "system:serviceaccount:" + namespace.name() + ":" + fullname;
        assertThat(failure).hasRootCauseInstanceOf(MissingPermissionsException.class);
        FailureAnalysis analysis = analyze(failure);
        assertThat(analysis.getDescription()).contains(identity).endsWith("in namespace " + namespace.name()
                + " (a Role there, or a ClusterRole):\n"
                + "  # the leader Lease, created when missing; the member Leases of the shard ring\n"
                + "  - apiGroups: [\"coordination.k8s.io\"]\n"
                + "    resources: [\"leases\"]\n"
                + "    verbs: [\"get\", \"list\", \"watch\", \"update\", \"patch\", \"delete\"]");
        assertThat(analysis.getAction()).contains(identity);
    }

    /** {@code helm install} of the chart into {@code namespace}; uninstalled after the test. */
    private String install(ClusterConnection connection, TestNamespace namespace, Map<String, Object> values) {
        String release = namespace.name();
        Map<String, Object> all = new LinkedHashMap<>(values);
        all.put("crds.install", false);
        // The webhook configurations are cluster-wide and point at the webhook Service, which no pod backs
        // here (the operator runs in this JVM): with failurePolicy Fail they would refuse every StaticSite
        // write on the server. ChartWebhooksIT covers them and their RBAC.
        all.put("webhooks.enabled", false);
        cleanUp.push(Chart.install(connection, namespace.name(), release, all));
        return release;
    }

    /** Takes the rule {@code which} selects out of the installed Role, as an administrator would. */
    private static void removeFromRole(String namespace, String name, Predicate<PolicyRule> which) {
        ResourceClient<Role> roles = admin.rbacV1().roles().inNamespace(namespace);
        roles.update(withoutOne(roles.get(name), Role::getRules, which));
    }

    private static <R> R withoutOne(R role, Function<R, List<PolicyRule>> rules, Predicate<PolicyRule> which) {
        int before = rules.apply(role).size();
        rules.apply(role).removeIf(which);
        assertThat(rules.apply(role)).as("one rule removed").hasSize(before - 1);
        return role;
    }

    /**
     * A member Lease of {@code ring} as a replica writes it, held by {@code holder} ({@code ""}:
     * released) with a lease of one second, and never renewed.
     */
    private static Lease memberLease(String ring, String shardId, String holder) {
        return new LeaseBuilder().withNewMetadata().withName(ShardLabels.leaseName(ring, shardId))
                .addToLabels(ShardLabels.RING_LABEL, ring).addToLabels(ShardLabels.SHARD_LABEL, shardId).endMetadata()
                .withSpec(LeaderElectionRecord.first(holder, Duration.ofSeconds(1), Instant.now()).toLeaseSpec()).build();
    }

    private static String name(HasMetadata object) {
        return object.getMetadata().getName();
    }

    private static String label(HasMetadata object, String key) {
        Map<String, String> labels = object.getMetadata().getLabels();
        return labels == null ? "" : labels.getOrDefault(key, "");
    }

    /**
     * Starts the sample operator as a pod of the chart's Deployment ({@link DeploymentPod}): the
     * chart's ServiceAccount through the in-cluster configuration, and the Deployment's environment
     * as installed, with the server ports free for several replicas on this host.
     */
    private ConfigurableApplicationContext run(ClusterConnection connection, TestNamespace namespace, Path folder,
            String fullname, Duration cacheSyncTimeout) {
        ConfigurableApplicationContext context = DeploymentPod.create(connection, namespace.name(), fullname, folder)
                .withEnvironment("SERVER_PORT", "0")
                // replicas share this JVM's host: the actuator on the random port too
                .withoutEnvironment("MANAGEMENT_SERVER_PORT")
                .withEnvironment("OPERATOR_INFORMERS_CACHESYNCTIMEOUT", cacheSyncTimeout.toMillis() + "ms")
                .run(SampleOperatorApplication.class);
        cleanUp.push(context::close);
        return context;
    }

    private static StaticSiteStatus awaitStatus(ResourceClient<StaticSite> sites, String name,
            Predicate<StaticSiteStatus> condition) {
        return await().atMost(WAIT).until(() -> sites.get(name).getStatus(), s -> s != null && condition.test(s));
    }

    /** What Spring Boot prints for a failed start: the first analyzer that explains it. */
    private static FailureAnalysis analyze(Throwable failure) {
        assertThat(failure).as("the start failed").isNotNull();
        return SpringFactoriesLoader.forDefaultResourceLocation().load(FailureAnalyzer.class,
                        SpringFactoriesLoader.FailureHandler.logging(
                                org.apache.commons.logging.LogFactory.getLog(ChartRbacIT.class)))
                .stream().map(analyzer -> analyzer.analyze(failure)).filter(java.util.Objects::nonNull).findFirst()
                .orElseThrow(() -> new AssertionError("no failure analyzer explains " + failure, failure));
    }
}
