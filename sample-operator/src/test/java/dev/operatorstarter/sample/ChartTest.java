package dev.operatorstarter.sample;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.operatorstarter.controller.OwnerReferences;
import dev.operatorstarter.sample.Chart.Manifests;
import dev.operatorstarter.sharding.ShardLabels;
import java.nio.file.Files;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * The Helm chart, linted and rendered by Helm, holds to the conventions the chart promises: least
 * privilege (exactly the permissions the operator uses), leader election with more than one
 * replica, sharding only when asked for (then with leader election and its member Leases), a pod
 * that meets the {@code restricted} Pod Security Standard, probes on the actuator groups, the CRD
 * as rendered from its single copy, and a values schema that rejects typos.
 * {@code ChartRbacIT} installs it into the real API server and proves the permissions suffice.
 */
class ChartTest {

    static final String RELEASE = "sites";
    static final String NAMESPACE = "operators";
    static final String FULLNAME = "sites-sample-operator";

    /** What StaticSiteReconciler, its informers, the event recorder and the finalizer use, in any namespace. */
    static final List<String> OPERATOR_PERMISSIONS = List.of(
            "/configmaps:create", "/configmaps:get", "/configmaps:list", "/configmaps:patch", "/configmaps:watch",
            "/pods:get", "/pods:list", "/pods:watch",
            "/services:create", "/services:get", "/services:list", "/services:patch", "/services:watch",
            "apps/deployments:create", "apps/deployments:get", "apps/deployments:list", "apps/deployments:patch",
            "apps/deployments:watch",
            "events.k8s.io/events:create", "events.k8s.io/events:patch",
            "sample.operatorstarter.dev/staticsites/finalizers:update",
            "sample.operatorstarter.dev/staticsites/status:patch",
            "sample.operatorstarter.dev/staticsites/status:update",
            "sample.operatorstarter.dev/staticsites:get", "sample.operatorstarter.dev/staticsites:list",
            "sample.operatorstarter.dev/staticsites:patch", "sample.operatorstarter.dev/staticsites:watch");

    /** The site index ConfigMap, in the release namespace. */
    static final List<String> INDEX_PERMISSIONS = List.of("/configmaps:create", "/configmaps:get@" + FULLNAME + "-sites",
            "/configmaps:patch@" + FULLNAME + "-sites");

    /** The leader-election Lease, in the release namespace. */
    static final List<String> LEASE_PERMISSIONS = List.of("coordination.k8s.io/leases:create",
            "coordination.k8s.io/leases:get@" + FULLNAME + "-leader", "coordination.k8s.io/leases:update@" + FULLNAME + "-leader");

    @Test
    void helmLintsTheChartStrictlyWithoutFindings() {
        assertThat(Chart.helm().lint()).isEmpty();
    }

    @Test
    void byDefaultTheOperatorReconcilesInTheReleaseNamespaceOnlyAndMayDoNothingThereItDoesNotUse() {
        Manifests chart = Chart.render(RELEASE, NAMESPACE, Map.of());

        assertThat(chart.all("ClusterRole")).extracting(role -> role.at("/metadata/name").asString())
                .as("only the CA injection's, by resource name (tested below)").containsExactly(FULLNAME + "-ca-injection");
        JsonNode reconcile = named(chart.all("Role"), FULLNAME + "-reconcile");
        assertThat(reconcile.at("/metadata/namespace").asString()).isEqualTo(NAMESPACE);
        assertThat(Chart.permissions(reconcile)).containsExactlyElementsOf(OPERATOR_PERMISSIONS);
        assertBoundToTheServiceAccount(chart, named(chart.all("RoleBinding"), FULLNAME + "-reconcile"));

        JsonNode role = named(chart.all("Role"), FULLNAME);
        assertThat(role.at("/metadata/namespace").asString()).isEqualTo(NAMESPACE);
        assertThat(Chart.permissions(role)).as("no Lease rules while leader election is off")
                .containsExactlyElementsOf(INDEX_PERMISSIONS);
        assertBoundToTheServiceAccount(chart, named(chart.all("RoleBinding"), FULLNAME));
        assertThat(chart.environment()).containsEntry("SAMPLE_SITEINDEX_NAME", FULLNAME + "-sites")
                .containsEntry("SAMPLE_SITEINDEX_NAMESPACE", "fieldRef:metadata.namespace")
                .containsEntry("OPERATOR_INFORMERS_NAMESPACES", NAMESPACE);
        for (JsonNode anyRole : concat(chart.all("ClusterRole"), chart.all("Role"))) {
            assertThat(Chart.permissions(anyRole)).noneMatch(p -> p.contains("*") || p.endsWith(":delete")
                    || p.contains("/secrets:"));
        }
        for (JsonNode clusterRole : chart.all("ClusterRole")) {
            assertThat(Chart.permissions(clusterRole)).as("cluster-wide, only named objects")
                    .allMatch(permission -> permission.contains("@"));
        }
    }

    @Test
    void watchingAllNamespacesIsAChoiceThatGrantsTheReconcileRulesClusterWide() {
        Manifests chart = Chart.render(RELEASE, NAMESPACE, Map.of("watchAllNamespaces", true));

        JsonNode clusterRole = named(chart.all("ClusterRole"), FULLNAME);
        assertThat(Chart.permissions(clusterRole)).containsExactlyElementsOf(OPERATOR_PERMISSIONS);
        JsonNode binding = named(chart.all("ClusterRoleBinding"), FULLNAME);
        assertThat(binding.at("/roleRef/name").asString()).isEqualTo(FULLNAME);
        assertBoundToTheServiceAccount(chart, binding);
        assertThat(chart.all("Role")).extracting(role -> role.at("/metadata/name").asString()).containsExactly(FULLNAME);
        assertThat(chart.environment()).doesNotContainKey("OPERATOR_INFORMERS_NAMESPACES");
        assertThat(chart.one("ValidatingWebhookConfiguration").at("/webhooks/0/namespaceSelector").isMissingNode())
                .isTrue();

        assertThatThrownBy(() -> Chart.render(RELEASE, NAMESPACE, Map.of("watchAllNamespaces", true,
                "watchNamespaces[0]", "team-a"))).hasMessageContaining("watchAllNamespaces and watchNamespaces exclude each other");
    }

    @Test
    void moreThanOneReplicaSwitchesLeaderElectionOnWithALeaseRoleForExactlyItsLease() {
        Manifests chart = Chart.render(RELEASE, NAMESPACE, Map.of("replicaCount", 3));

        assertThat(chart.one("Deployment").at("/spec/replicas").asInt()).isEqualTo(3);
        assertThat(chart.environment()).containsEntry("OPERATOR_LEADERELECTION_ENABLED", "true")
                .containsEntry("OPERATOR_LEADERELECTION_LEASENAME", FULLNAME + "-leader")
                .containsEntry("OPERATOR_LEADERELECTION_LEASENAMESPACE", "fieldRef:metadata.namespace");
        assertThat(Chart.permissions(named(chart.all("Role"), FULLNAME)))
                .containsExactlyInAnyOrderElementsOf(concat(INDEX_PERMISSIONS, LEASE_PERMISSIONS));

        assertThat(Chart.render(RELEASE, NAMESPACE, Map.of()).environment())
                .containsEntry("OPERATOR_LEADERELECTION_ENABLED", "false");
        assertThat(Chart.render(RELEASE, NAMESPACE, Map.of("leaderElection.enabled", true)).environment())
                .containsEntry("OPERATOR_LEADERELECTION_ENABLED", "true");
    }

    @Test
    void shardingIsOffByDefaultAndRendersNothingOfIt() {
        for (Map<String, Object> values : List.<Map<String, Object>>of(Map.of(), Map.of("replicaCount", 3),
                Map.of("watchNamespaces[0]", "team-a"))) {
            Manifests chart = Chart.render(RELEASE, NAMESPACE, values);
            Map<String, Object> off = new HashMap<>(values);
            off.put("sharding.enabled", false);

            assertThat(Chart.render(RELEASE, NAMESPACE, off).text()).as("%s", values).isEqualTo(chart.text());
            assertThat(chart.text()).as("%s", values).doesNotContainIgnoringCase("sharding");
            assertThat(chart.environment().keySet()).noneMatch(name -> name.startsWith("OPERATOR_SHARDING_"));
            assertThat(chart.all("Role").stream().map(Chart::permissions).flatMap(List::stream)).as("no member Leases")
                    .noneMatch(permission -> permission.startsWith("coordination.k8s.io/leases:")
                            && !permission.contains("@") && !permission.endsWith(":create"));
            assertThat(Chart.notes(RELEASE, NAMESPACE, values)).as("%s", values).doesNotContainIgnoringCase("shard");
        }
    }

    @Test
    void withShardingEachReplicaIsAShardOfTheRingNamedAfterTheReleaseAndLeaderElectionIsOn() {
        Manifests chart = Chart.render(RELEASE, NAMESPACE, Map.of("sharding.enabled", true));

        assertThat(chart.environment()).as("the leader assigns, so sharding needs leader election")
                .containsEntry("OPERATOR_LEADERELECTION_ENABLED", "true")
                .containsEntry("OPERATOR_LEADERELECTION_LEASENAME", FULLNAME + "-leader")
                .containsEntry("OPERATOR_LEADERELECTION_LEASENAMESPACE", "fieldRef:metadata.namespace")
                .containsEntry("OPERATOR_SHARDING_ENABLED", "true")
                .containsEntry("OPERATOR_SHARDING_RINGNAME", FULLNAME)
                .containsEntry("OPERATOR_SHARDING_VIRTUALNODES", "100");
        assertThat(chart.one("Deployment").at("/spec/replicas").asInt()).as("one shard").isEqualTo(1);

        Manifests named = Chart.render(RELEASE, NAMESPACE, Map.of("sharding.enabled", true, "sharding.ringName", "web",
                "sharding.virtualNodes", 250, "replicaCount", 4));
        assertThat(named.environment()).containsEntry("OPERATOR_SHARDING_RINGNAME", "web")
                .containsEntry("OPERATOR_SHARDING_VIRTUALNODES", "250");
        assertThat(named.one("Deployment").at("/spec/replicas").asInt()).as("four shards").isEqualTo(4);
        assertThat(Chart.render(RELEASE, NAMESPACE, Map.of("sharding.enabled", true, "fullnameOverride", "a".repeat(63)))
                .environment()).as("the longest fullname is a DNS label still")
                .containsEntry("OPERATOR_SHARDING_RINGNAME", "a".repeat(63));
    }

    @Test
    void withShardingTheReleaseRoleGrantsTheMemberLeasesByAnyNameAndTheReconcileRulesPatchAsBefore() {
        List<String> memberLeases = Stream.of("get", "list", "watch", "create", "update", "patch", "delete")
                .map(verb -> "coordination.k8s.io/leases:" + verb).toList();
        List<String> patches = List.of("sample.operatorstarter.dev/staticsites:patch", "/configmaps:patch",
                "/services:patch", "apps/deployments:patch");

        Manifests chart = Chart.render(RELEASE, NAMESPACE, Map.of("sharding.enabled", true));

        assertThat(Chart.permissions(named(chart.all("Role"), FULLNAME))).as("the leader's Lease by name, every member's by any name")
                .containsExactlyInAnyOrderElementsOf(concat(concat(INDEX_PERMISSIONS, LEASE_PERMISSIONS), memberLeases));
        assertThat(Chart.permissions(named(chart.all("Role"), FULLNAME + "-reconcile")))
                .as("the labels of the assignment are merge patches, which the operator may write already")
                .containsAll(patches).containsExactlyElementsOf(OPERATOR_PERMISSIONS);

        Manifests namespaced = Chart.render(RELEASE, NAMESPACE, Map.of("sharding.enabled", true,
                "watchNamespaces[0]", "team-a"));
        JsonNode releaseRole = named(namespaced.all("Role"), FULLNAME);
        assertThat(Chart.permissions(releaseRole)).containsAll(memberLeases);
        assertThat(Chart.permissions(named(namespaced.all("Role"), FULLNAME + "-reconcile")))
                .containsAll(patches).containsExactlyElementsOf(OPERATOR_PERMISSIONS);
    }

    @Test
    void withShardingTheNotesNameTheRingAndHowToListItsMembers() {
        String notes = Chart.notes(RELEASE, NAMESPACE, Map.of("sharding.enabled", true, "sharding.ringName", "web",
                "replicaCount", 3));

        assertThat(notes).contains("sharded (ring web)")
                .contains("kubectl get lease -n " + NAMESPACE + " -l " + ShardLabels.RING_LABEL + "=web")
                .contains("kubectl get staticsites -A -L " + OwnerReferences.SHARD_LABEL_PREFIX + "web")
                .as("the replicas do not stand by").doesNotContain("WARNING: replicaCount");
    }

    @Test
    void aNetworkPolicyIsOffByDefaultAndWhenOnAdmitsOnlyTheApiServerToTheWebhookPortAndTheNamedPeersToHttp() {
        assertThat(Chart.render(RELEASE, NAMESPACE, Map.of()).all("NetworkPolicy")).isEmpty();
        assertThatThrownBy(() -> Chart.render(RELEASE, NAMESPACE, Map.of("networkPolicy.enabled", true)))
                .hasMessageContaining("networkPolicy.enabled with webhooks.enabled needs networkPolicy.apiServerCidrs");

        Manifests chart = Chart.render(RELEASE, NAMESPACE, Map.of("networkPolicy.enabled", true,
                "networkPolicy.apiServerCidrs[0]", "10.0.0.0/24", "networkPolicy.apiServerCidrs[1]", "fd00::/64",
                "networkPolicy.metricsFrom[0].namespaceSelector.matchLabels.kubernetes\\.io/metadata\\.name", "monitoring"));

        JsonNode policy = chart.one("NetworkPolicy");
        assertThat(policy.at("/metadata/namespace").asString()).isEqualTo(NAMESPACE);
        assertThat(policy.at("/spec/podSelector/matchLabels")).isEqualTo(
                chart.one("Deployment").at("/spec/selector/matchLabels"));
        assertThat(policy.at("/spec/policyTypes").valueStream().map(JsonNode::asString)).containsExactly("Ingress");
        JsonNode webhook = policy.at("/spec/ingress/0");
        assertThat(webhook.at("/from").valueStream().map(peer -> peer.at("/ipBlock/cidr").asString()))
                .containsExactly("10.0.0.0/24", "fd00::/64");
        assertThat(webhook.at("/ports").valueStream().map(port -> port.at("/port").asInt())).containsExactly(9443);
        JsonNode http = policy.at("/spec/ingress/1");
        assertThat(http.at("/from/0/namespaceSelector/matchLabels/kubernetes.io~1metadata.name").asString())
                .isEqualTo("monitoring");
        assertThat(http.at("/ports").valueStream().map(port -> port.at("/port").asInt())).containsExactly(8081);
        assertThat(policy.at("/spec/ingress")).as("nothing else admitted").hasSize(2);

        Manifests noWebhooks = Chart.render(RELEASE, NAMESPACE, Map.of("networkPolicy.enabled", true,
                "webhooks.enabled", false, "crds.install", false));
        assertThat(noWebhooks.one("NetworkPolicy").at("/spec/ingress").isEmpty()).as("only the kubelet").isTrue();
    }

    @Test
    void watchingNamedNamespacesGrantsRolesThereAndNothingClusterWide() {
        Manifests chart = Chart.render(RELEASE, NAMESPACE, Map.of("watchNamespaces[0]", "team-a", "watchNamespaces[1]", "team-b"));

        assertThat(chart.all("ClusterRole")).extracting(role -> role.at("/metadata/name").asString())
                .as("only the CA injection's, by resource name").containsExactly(FULLNAME + "-ca-injection");
        assertThat(chart.all("ClusterRoleBinding")).extracting(binding -> binding.at("/roleRef/name").asString())
                .containsExactly(FULLNAME + "-ca-injection");
        for (String namespace : List.of("team-a", "team-b")) {
            JsonNode role = chart.all("Role").stream()
                    .filter(r -> namespace.equals(r.at("/metadata/namespace").asString())).findFirst().orElseThrow();
            assertThat(Chart.permissions(role)).containsExactlyElementsOf(OPERATOR_PERMISSIONS);
            assertThat(chart.all("RoleBinding")).anyMatch(b -> namespace.equals(b.at("/metadata/namespace").asString())
                    && role.at("/metadata/name").asString().equals(b.at("/roleRef/name").asString()));
        }
        assertThat(chart.environment()).containsEntry("OPERATOR_INFORMERS_NAMESPACES", "team-a,team-b");
        for (JsonNode binding : chart.all("RoleBinding")) {
            assertBoundToTheServiceAccount(chart, binding);
        }
    }

    @Test
    void theOperatorPodMeetsTheRestrictedPodSecurityStandard() {
        JsonNode pod = Chart.render(RELEASE, NAMESPACE, Map.of()).one("Deployment").at("/spec/template/spec");

        assertThat(pod.at("/securityContext/runAsNonRoot").asBoolean()).isTrue();
        assertThat(pod.at("/securityContext/seccompProfile/type").asString()).isEqualTo("RuntimeDefault");
        assertThat(pod.at("/hostNetwork").asBoolean(false)).isFalse();
        for (JsonNode container : pod.path("containers")) {
            JsonNode security = container.path("securityContext");
            assertThat(security.at("/allowPrivilegeEscalation").isBoolean()).isTrue();
            assertThat(security.at("/allowPrivilegeEscalation").asBoolean()).isFalse();
            assertThat(security.at("/capabilities/drop").valueStream().map(JsonNode::asString)).containsExactly("ALL");
            assertThat(security.at("/capabilities/add").isMissingNode()).isTrue();
            assertThat(security.at("/privileged").asBoolean(false)).isFalse();
            assertThat(security.at("/readOnlyRootFilesystem").asBoolean()).isTrue();
            assertThat(container.at("/resources/requests/memory").isString()).isTrue();
            assertThat(container.at("/resources/limits/memory").isString()).isTrue();
        }
        assertThat(pod.at("/volumes").valueStream().filter(v -> v.has("hostPath"))).isEmpty();
        assertThat(pod.at("/volumes").valueStream().map(v -> v.path("name").asString()))
                .as("a writable /tmp beside the read-only root").isNotEmpty();
    }

    @Test
    void probesUseTheActuatorHealthGroupsOnTheManagementPortWhichNoServiceExposes() {
        Manifests chart = Chart.render(RELEASE, NAMESPACE, Map.of());
        JsonNode container = chart.one("Deployment").at("/spec/template/spec/containers/0");

        assertThat(container.at("/ports").valueStream().map(port -> port.path("name").asString() + ":"
                + port.path("containerPort").asInt())).contains("management:8081");
        assertThat(chart.environment()).containsEntry("MANAGEMENT_SERVER_PORT", "8081");
        for (String probe : List.of("livenessProbe", "readinessProbe", "startupProbe")) {
            assertThat(container.at("/" + probe + "/httpGet/port").asString()).as(probe).isEqualTo("management");
        }
        assertThat(container.at("/livenessProbe/httpGet/path").asString()).isEqualTo("/actuator/health/liveness");
        assertThat(container.at("/readinessProbe/httpGet/path").asString()).isEqualTo("/actuator/health/readiness");
        assertThat(container.at("/startupProbe/httpGet/path").asString()).isEqualTo("/actuator/health/liveness");
        for (Map<String, Object> values : List.<Map<String, Object>>of(Map.of(), Map.of("metrics.podMonitor.enabled", true,
                "webhooks.certificates.mode", "certManager", "replicaCount", 2))) {
            assertThat(Chart.render(RELEASE, NAMESPACE, values).all("Service")).as("%s", values)
                    .allSatisfy(service -> assertThat(service.at("/spec/ports").valueStream()
                            .map(port -> port.path("targetPort").asString()))
                            .as("/actuator/operator and the health endpoints are not a Service's").containsOnly("webhook"));
        }
        assertThat(chart.one("Deployment").at("/spec/template/spec/serviceAccountName").asString())
                .isEqualTo(chart.one("ServiceAccount").at("/metadata/name").asString());
    }

    @Test
    void theCrdIsRenderedFromItsSingleCopyAndKeptOnUninstall() throws Exception {
        JsonNode rendered = Chart.render(RELEASE, NAMESPACE, Map.of()).one("CustomResourceDefinition");
        JsonNode file = Examples.read(Examples.CRD, JsonNode.class);

        ObjectNode withoutConversion = (ObjectNode) rendered.deepCopy();
        ((ObjectNode) withoutConversion.path("spec")).remove("conversion");
        assertThat(withoutConversion).as("the file, given its conversion stanza").isEqualTo(file);
        assertThat(rendered.at("/metadata/annotations/helm.sh~1resource-policy").asString()).isEqualTo("keep");
        assertThat(Chart.render(RELEASE, NAMESPACE, Map.of("crds.install", false)).all("CustomResourceDefinition"))
                .isEmpty();
        assertThat(Files.exists(Chart.DIRECTORY.resolve("crds"))).as("Helm would never upgrade a crds/ folder").isFalse();
    }

    @Test
    void optionalPodMonitorDisruptionBudgetAndDashboardAreOffByDefaultAndRenderWhenAskedFor() {
        Manifests defaults = Chart.render(RELEASE, NAMESPACE, Map.of());
        assertThat(defaults.all("PodMonitor")).isEmpty();
        assertThat(defaults.all("PodDisruptionBudget")).isEmpty();
        assertThat(defaults.all("ConfigMap")).isEmpty();

        Manifests all = Chart.render(RELEASE, NAMESPACE, Map.of("metrics.podMonitor.enabled", true,
                "podDisruptionBudget.enabled", true, "grafanaDashboard.enabled", true, "replicaCount", 2));
        JsonNode monitor = all.one("PodMonitor");
        assertThat(monitor.at("/spec/podMetricsEndpoints/0/port").asString()).isEqualTo("management");
        assertThat(monitor.at("/spec/podMetricsEndpoints/0/path").asString()).isEqualTo("/actuator/prometheus");
        assertThat(monitor.at("/spec/selector/matchLabels")).isEqualTo(all.one("Deployment").at("/spec/selector/matchLabels"));
        assertThat(all.one("PodDisruptionBudget").at("/spec/selector/matchLabels"))
                .isEqualTo(all.one("Deployment").at("/spec/selector/matchLabels"));
        assertThat(all.one("ConfigMap").at("/metadata/labels/grafana_dashboard").asString()).isEqualTo("1");
    }

    @Test
    void theGrafanaDashboardQueriesOnlyMetricsTheOperatorExports() throws Exception {
        JsonNode configMap = Chart.render(RELEASE, NAMESPACE, Map.of("grafanaDashboard.enabled", true)).one("ConfigMap");
        String json = configMap.path("data").values().iterator().next().asString();
        JsonNode dashboard = JsonMapper.builder().build().readTree(json);

        Set<String> queried = new HashSet<>();
        Pattern metric = Pattern.compile("\\b((?:controller_runtime|controller_sharding|workqueue|rest_client"
                + "|leader_election|reflector|watch|informer|jvm|process)_[a-z_]+)");
        List<String> expressions = dashboard.findValues("expr").stream().map(JsonNode::asString).toList();
        assertThat(expressions).hasSizeGreaterThan(10);
        for (String expression : expressions) {
            Matcher matcher = metric.matcher(expression);
            while (matcher.find()) {
                queried.add(matcher.group(1).replaceAll("_(bucket|count|sum|max)$", ""));
            }
        }
        assertThat(queried).contains("controller_runtime_reconcile_total", "controller_runtime_reconcile_errors_total",
                "controller_runtime_reconcile_time_seconds", "workqueue_depth", "workqueue_adds_total",
                "workqueue_queue_duration_seconds", "rest_client_requests_total", "leader_election_master_status",
                "controller_sharding_objects", "controller_sharding_handover_duration_seconds",
                "controller_sharding_pending_drains", "controller_sharding_members");
        assertThat(queried).allMatch(EXPORTED::contains, "a metric the operator exports (DESIGN.md's table, JVM)");
    }

    @Test
    void theDashboardShowsP50AndP99FromTheBucketsOfTheHistograms() throws Exception {
        List<Dashboard.Query> queries = Dashboard.shipped().queries();
        Map<String, String> histograms = Map.of("controller_runtime_reconcile_time_seconds", "controller",
                "workqueue_queue_duration_seconds", "controller", "workqueue_work_duration_seconds", "controller",
                "controller_sharding_handover_duration_seconds", "ring");
        histograms.forEach((histogram, label) -> {
            for (String quantile : List.of("0.5", "0.99")) {
                assertThat(queries).as("a %s quantile of %s", quantile, histogram).anySatisfy(query -> assertThat(
                        query.expr()).startsWith("histogram_quantile(" + quantile + ", sum by (le, " + label
                                + ") (rate(" + histogram + "_bucket{"));
            }
        });
        List<Dashboard.Query> quantiles = queries.stream().filter(query -> query.expr().contains("histogram_quantile"))
                .toList();
        assertThat(quantiles).hasSize(8).allSatisfy(query -> {
            assertThat(query.expr()).as(query.panel()).containsPattern("sum by \\((le, |[a-z, ]*, le)")
                    .containsPattern("rate\\([a-z_]+_bucket\\{");
        });
    }

    @Test
    void everyDashboardPanelIsWellFormed() throws Exception {
        Dashboard dashboard = Dashboard.shipped();
        assertThat(dashboard.json().path("uid").asString()).isEqualTo("sample-operator");
        assertThat(dashboard.panels()).extracting(panel -> panel.path("id").asInt()).doesNotHaveDuplicates();
        assertThat(dashboard.panels()).allSatisfy(panel -> {
            String title = panel.path("title").asString();
            JsonNode grid = panel.path("gridPos");
            assertThat(grid.path("x").asInt() + grid.path("w").asInt()).as("%s fits the 24 columns", title)
                    .isLessThanOrEqualTo(24);
            assertThat(grid.path("h").asInt()).as("%s has a height", title).isPositive();
            if (!panel.path("type").asString().equals("row")) {
                assertThat(panel.path("targets")).as("%s has queries", title).isNotEmpty();
                assertThat(panel.path("targets").findValuesAsString("refId")).as("%s refIds", title).doesNotHaveDuplicates();
                assertThat(panel.path("targets")).allSatisfy(target -> assertThat(target.at("/datasource/uid").asString())
                        .as("%s queries the chosen data source", title).isEqualTo("${datasource}"));
            }
        });
    }

    @Test
    void theValuesSchemaRejectsAMisspeltValue() {
        assertThatThrownBy(() -> Chart.render(RELEASE, NAMESPACE, Map.of("replicaCont", 2)))
                .hasMessageContaining("replicaCont");
        assertThatThrownBy(() -> Chart.render(RELEASE, NAMESPACE, Map.of("replicaCount", 0)))
                .hasMessageContaining("replicaCount");
    }

    @Test
    void theValuesSchemaRejectsARingNameThatIsNoDnsLabelAndVirtualNodesOutsideOneToAThousand() {
        for (String ringName : List.of("Web", "web_ring", "-web", "web-", "a".repeat(64))) {
            assertThatThrownBy(() -> Chart.render(RELEASE, NAMESPACE, Map.of("sharding.enabled", true,
                    "sharding.ringName", ringName))).as(ringName).hasMessageContaining("ringName");
        }
        for (int virtualNodes : new int[] {0, 1001}) {
            assertThatThrownBy(() -> Chart.render(RELEASE, NAMESPACE, Map.of("sharding.enabled", true,
                    "sharding.virtualNodes", virtualNodes))).as("%d", virtualNodes).hasMessageContaining("virtualNodes");
        }
        assertThatThrownBy(() -> Chart.render(RELEASE, NAMESPACE, Map.of("sharding.enabled", "yes")))
                .hasMessageContaining("enabled");
        assertThatThrownBy(() -> Chart.render(RELEASE, NAMESPACE, Map.of("sharding.enabled", true,
                "fullnameOverride", "Sites"))).as("a default ring name that is no DNS label")
                .hasMessageContaining("set sharding.ringName");
        assertThat(Chart.render(RELEASE, NAMESPACE, Map.of("sharding.enabled", true, "fullnameOverride", "Sites",
                "sharding.ringName", "sites")).environment()).containsEntry("OPERATOR_SHARDING_RINGNAME", "sites");
    }

    @Test
    void webhooksAreOnByDefaultWithGeneratedCertificatesAndOffRenderNoneOfTheirObjects() {
        Manifests chart = Chart.render(RELEASE, NAMESPACE, Map.of());
        assertThat(chart.all("ValidatingWebhookConfiguration")).hasSize(1);
        assertThat(chart.all("MutatingWebhookConfiguration")).hasSize(1);
        assertThat(chart.all("Certificate")).as("generated: nothing needed in the cluster").isEmpty();
        assertThat(chart.environment()).containsEntry("OPERATOR_WEBHOOK_ENABLED", "true")
                .containsKey("OPERATOR_WEBHOOK_CAINJECTION_CUSTOMRESOURCEDEFINITIONS");
        assertThat(chart.one("CustomResourceDefinition").at("/spec/conversion/strategy").asString()).isEqualTo("Webhook");

        assertThatThrownBy(() -> Chart.render(RELEASE, NAMESPACE, Map.of("webhooks.enabled", false)))
                .as("the CRD's versions need the conversion").hasMessageContaining("every site read in the other version "
                        + "would lose its files");
        Manifests off = Chart.render(RELEASE, NAMESPACE, Map.of("webhooks.enabled", false, "crds.install", false));
        for (String kind : List.of("ValidatingWebhookConfiguration", "MutatingWebhookConfiguration", "Issuer",
                "Certificate")) {
            assertThat(off.all(kind)).as(kind).isEmpty();
        }
        assertThat(off.all("Service")).isEmpty();
        assertThat(off.all("ClusterRole")).isEmpty();
        assertThat(Chart.permissions(named(off.all("Role"), FULLNAME + "-reconcile")))
                .containsExactlyElementsOf(OPERATOR_PERMISSIONS);
        assertThat(off.environment()).as("the application serves its webhooks unless told not to")
                .containsEntry("OPERATOR_WEBHOOK_ENABLED", "false");
        assertThat(off.environment().keySet()).filteredOn(name -> name.startsWith("OPERATOR_WEBHOOK_"))
                .containsExactly("OPERATOR_WEBHOOK_ENABLED");
        assertThat(off.one("Deployment").at("/spec/template/spec/containers/0/ports")).hasSize(1);
    }

    @Test
    void theWebhookServiceForwardsPort443ToTheWebhookPortOfTheOperatorPods() {
        Manifests chart = Chart.render(RELEASE, NAMESPACE, Map.of("webhooks.enabled", true, "webhooks.port", 10443));

        JsonNode service = webhookService(chart);
        assertThat(service.at("/metadata/namespace").asString()).isEqualTo(NAMESPACE);
        assertThat(service.at("/spec/selector")).isEqualTo(chart.one("Deployment").at("/spec/selector/matchLabels"));
        assertThat(service.at("/spec/ports")).singleElement().satisfies(port -> {
            assertThat(port.path("port").asInt()).isEqualTo(443);
            assertThat(port.path("targetPort").asString()).isEqualTo("webhook");
        });
        assertThat(service.at("/spec/publishNotReadyAddresses").asBoolean()).as("admission: ready pods only").isFalse();
        JsonNode conversion = webhookService(chart, FULLNAME + "-conversion");
        assertThat(conversion.at("/spec/publishNotReadyAddresses").asBoolean())
                .as("conversion: every pod, since filling its caches (readiness) may need a conversion").isTrue();
        assertThat(conversion.at("/spec/selector")).isEqualTo(service.at("/spec/selector"));
        assertThat(conversion.at("/spec/ports")).isEqualTo(service.at("/spec/ports"));
        assertThat(chart.one("Deployment").at("/spec/template/spec/containers/0/ports").valueStream()
                .map(port -> port.path("name").asString() + ":" + port.path("containerPort").asInt()))
                .containsExactly("management:8081", "webhook:10443");
        assertThat(chart.environment()).containsEntry("OPERATOR_WEBHOOK_ENABLED", "true")
                .containsEntry("OPERATOR_WEBHOOK_PORT", "10443");
        for (int taken : List.of(8080, 8081)) {
            assertThatThrownBy(() -> Chart.render(RELEASE, NAMESPACE, Map.of("webhooks.enabled", true, "webhooks.port", taken)))
                    .hasMessageContaining("webhooks.port " + taken + " is taken by the operator");
        }
    }

    @Test
    void withTheLongestFullnameTheWebhookServiceAndCertificateNamesStayWithin63Characters() {
        String longest = "a".repeat(63);
        Manifests chart = Chart.render(RELEASE, NAMESPACE, Map.of("webhooks.certificates.mode", "certManager",
                "fullnameOverride", longest));

        assertThat(chart.all("Service")).extracting(service -> service.at("/metadata/name").asString())
                .allSatisfy(name -> assertThat(name).hasSizeLessThanOrEqualTo(63));
        assertThat(chart.one("Certificate").at("/metadata/name").asString()).as("cert-manager labels with it")
                .hasSizeLessThanOrEqualTo(63);
        assertThat(chart.one("Certificate").at("/spec/dnsNames/0").asString())
                .startsWith(webhookService(chart, "a".repeat(55) + "-webhook").at("/metadata/name").asString() + ".");
    }

    @Test
    void theAdmissionWebhooksCallTheWebhookServiceWithTheFailurePolicyAndTimeoutFromTheValues() {
        Manifests chart = Chart.render(RELEASE, NAMESPACE, Map.of("webhooks.enabled", true,
                "webhooks.failurePolicy", "Ignore", "webhooks.timeoutSeconds", 5));

        Map<String, String> paths = Map.of("ValidatingWebhookConfiguration", "/validate-staticsites",
                "MutatingWebhookConfiguration", "/default-staticsites");
        paths.forEach((kind, path) -> assertThat(chart.one(kind).path("webhooks")).as(kind).singleElement()
                .satisfies(webhook -> {
                    assertThat(webhook.at("/clientConfig/service/name").asString()).isEqualTo(FULLNAME + "-webhook");
                    assertThat(webhook.at("/clientConfig/service/namespace").asString()).isEqualTo(NAMESPACE);
                    assertThat(webhook.at("/clientConfig/service/port").asInt()).isEqualTo(443);
                    assertThat(webhook.at("/clientConfig/service/path").asString()).isEqualTo(path);
                    assertThat(webhook.at("/clientConfig/caBundle").isMissingNode()).as("injected, never rendered")
                            .isTrue();
                    assertThat(webhook.at("/failurePolicy").asString()).isEqualTo("Ignore");
                    assertThat(webhook.at("/timeoutSeconds").asInt()).isEqualTo(5);
                    assertThat(webhook.at("/sideEffects").asString()).isEqualTo("None");
                    assertThat(webhook.at("/admissionReviewVersions").valueStream().map(JsonNode::asString))
                            .containsExactly("v1");
                    assertThat(webhook.at("/rules")).singleElement().satisfies(rule -> {
                        assertThat(rule.at("/apiGroups/0").asString()).isEqualTo("sample.operatorstarter.dev");
                        assertThat(rule.at("/resources").valueStream().map(JsonNode::asString))
                                .containsExactly("staticsites");
                        assertThat(rule.at("/operations").valueStream().map(JsonNode::asString))
                                .containsExactly("CREATE", "UPDATE");
                        assertThat(rule.at("/apiVersions").valueStream().map(JsonNode::asString))
                                .as("the CRD's storage version").containsExactly("v1");
                    });
                    assertThat(webhook.at("/namespaceSelector/matchExpressions/0/values").valueStream()
                            .map(JsonNode::asString)).as("the release namespace is watched").containsExactly(NAMESPACE);
                    assertThat(webhook.at("/matchConditions/0/expression").asString()).as("the operator's own writes skip it")
                            .isEqualTo("request.userInfo.username != 'system:serviceaccount:" + NAMESPACE + ":" + FULLNAME + "'");
                }));
        assertThat(Chart.render(RELEASE, NAMESPACE, Map.of("webhooks.enabled", true)).one("ValidatingWebhookConfiguration")
                .at("/webhooks/0/failurePolicy").asString()).as("the default").isEqualTo("Fail");
    }

    @Test
    void withWatchNamespacesTheAdmissionWebhooksAreCalledOnlyForObjectsInThem() {
        Manifests chart = Chart.render(RELEASE, NAMESPACE, Map.of("webhooks.enabled", true,
                "watchNamespaces[0]", "team-a", "watchNamespaces[1]", "team-b"));

        for (String kind : List.of("ValidatingWebhookConfiguration", "MutatingWebhookConfiguration")) {
            JsonNode selector = chart.one(kind).at("/webhooks/0/namespaceSelector/matchExpressions");
            assertThat(selector).as(kind).singleElement().satisfies(expression -> {
                assertThat(expression.path("key").asString()).isEqualTo("kubernetes.io/metadata.name");
                assertThat(expression.path("operator").asString()).isEqualTo("In");
                assertThat(expression.path("values").valueStream().map(JsonNode::asString))
                        .containsExactly("team-a", "team-b");
            });
        }
    }

    @Test
    void eachAdmissionWebhookCanBeLeftOutAndTheConversionWhenTheChartInstallsNoCrd() {
        Manifests chart = Chart.render(RELEASE, NAMESPACE, Map.of("webhooks.enabled", true,
                "webhooks.validating.enabled", false, "webhooks.mutating.path", "/mutate"));

        assertThat(chart.all("ValidatingWebhookConfiguration")).isEmpty();
        assertThat(chart.one("MutatingWebhookConfiguration").at("/webhooks/0/clientConfig/service/path").asString())
                .isEqualTo("/mutate");
        assertThat(chart.one("CustomResourceDefinition").at("/spec/conversion/strategy").asString()).isEqualTo("Webhook");

        assertThatThrownBy(() -> Chart.render(RELEASE, NAMESPACE, Map.of("webhooks.conversion.enabled", false)))
                .hasMessageContaining("Keep the conversion, or install the CRD yourself (crds.install=false)");
        Manifests noConversion = Chart.render(RELEASE, NAMESPACE, Map.of("webhooks.conversion.enabled", false,
                "crds.install", false));
        assertThat(noConversion.all("Service")).extracting(service -> service.at("/metadata/name").asString())
                .doesNotContain(FULLNAME + "-conversion");
        assertThat(noConversion.environment()).doesNotContainKey("OPERATOR_WEBHOOK_CAINJECTION_CUSTOMRESOURCEDEFINITIONS");
    }

    @Test
    void withCertManagerASelfSignedIssuerIssuesTheCertificateThePodMountsAndCertManagerInjectsTheCa() {
        Manifests chart = Chart.render(RELEASE, NAMESPACE, Map.of("webhooks.certificates.mode", "certManager"));

        JsonNode issuer = chart.one("Issuer");
        assertThat(issuer.at("/spec/selfSigned").isObject()).isTrue();
        JsonNode certificate = chart.one("Certificate");
        assertThat(certificate.at("/metadata/namespace").asString()).isEqualTo(NAMESPACE);
        assertThat(certificate.at("/spec/issuerRef/name").asString()).isEqualTo(issuer.at("/metadata/name").asString());
        assertThat(certificate.at("/spec/dnsNames").valueStream().map(JsonNode::asString))
                .containsExactly(FULLNAME + "-webhook." + NAMESPACE + ".svc",
                        FULLNAME + "-webhook." + NAMESPACE + ".svc.cluster.local",
                        FULLNAME + "-conversion." + NAMESPACE + ".svc",
                        FULLNAME + "-conversion." + NAMESPACE + ".svc.cluster.local");
        String secret = certificate.at("/spec/secretName").asString();

        JsonNode pod = chart.one("Deployment").at("/spec/template/spec");
        JsonNode volume = pod.at("/volumes").valueStream().filter(v -> secret.equals(v.at("/secret/secretName").asString()))
                .findFirst().orElseThrow();
        JsonNode mount = pod.at("/containers/0/volumeMounts").valueStream()
                .filter(m -> volume.path("name").asString().equals(m.path("name").asString())).findFirst().orElseThrow();
        assertThat(mount.path("readOnly").asBoolean()).isTrue();
        String directory = mount.path("mountPath").asString();
        assertThat(chart.environment()).containsEntry("OPERATOR_WEBHOOK_CERTIFICATE_CERTFILE", directory + "/tls.crt")
                .containsEntry("OPERATOR_WEBHOOK_CERTIFICATE_KEYFILE", directory + "/tls.key");
        assertThat(chart.environment().keySet()).noneMatch(name -> name.startsWith("OPERATOR_WEBHOOK_CAINJECTION_"));

        String injectFrom = NAMESPACE + "/" + certificate.at("/metadata/name").asString();
        for (String kind : List.of("ValidatingWebhookConfiguration", "MutatingWebhookConfiguration",
                "CustomResourceDefinition")) {
            assertThat(chart.one(kind).at("/metadata/annotations/cert-manager.io~1inject-ca-from").asString()).as(kind)
                    .isEqualTo(injectFrom);
        }
        assertThat(chart.all("ClusterRole")).as("no RBAC for caBundle injection: cert-manager injects").isEmpty();
    }

    @Test
    void withCertManagerAnExistingIssuerCanIssueTheCertificateInstead() {
        Manifests chart = Chart.render(RELEASE, NAMESPACE, Map.of("webhooks.certificates.mode", "certManager",
                "webhooks.certificates.certManager.issuerRef.name", "company-ca",
                "webhooks.certificates.certManager.issuerRef.kind", "ClusterIssuer",
                "webhooks.certificates.certManager.duration", "2160h"));

        assertThat(chart.all("Issuer")).isEmpty();
        JsonNode certificate = chart.one("Certificate");
        assertThat(certificate.at("/spec/issuerRef/name").asString()).isEqualTo("company-ca");
        assertThat(certificate.at("/spec/issuerRef/kind").asString()).isEqualTo("ClusterIssuer");
        assertThat(certificate.at("/spec/issuerRef/group").asString()).isEqualTo("cert-manager.io");
        assertThat(certificate.at("/spec/duration").asString()).isEqualTo("2160h");
    }

    @Test
    void withGeneratedCertificatesTheOperatorMayGetAndUpdateExactlyTheObjectsWhoseCaBundleItWrites() {
        Manifests chart = Chart.render(RELEASE, NAMESPACE, Map.of("webhooks.enabled", true,
                "webhooks.certificates.mode", "generated"));

        assertThat(chart.all("Issuer")).isEmpty();
        assertThat(chart.all("Certificate")).isEmpty();
        JsonNode role = chart.all("ClusterRole").stream()
                .filter(r -> r.at("/metadata/name").asString().equals(FULLNAME + "-ca-injection")).findFirst().orElseThrow();
        String crd = "staticsites.sample.operatorstarter.dev";
        assertThat(Chart.permissions(role)).containsExactly(
                "admissionregistration.k8s.io/mutatingwebhookconfigurations:get@" + FULLNAME,
                "admissionregistration.k8s.io/mutatingwebhookconfigurations:update@" + FULLNAME,
                "admissionregistration.k8s.io/validatingwebhookconfigurations:get@" + FULLNAME,
                "admissionregistration.k8s.io/validatingwebhookconfigurations:update@" + FULLNAME,
                "apiextensions.k8s.io/customresourcedefinitions:get@" + crd,
                "apiextensions.k8s.io/customresourcedefinitions:update@" + crd);
        JsonNode binding = chart.all("ClusterRoleBinding").stream()
                .filter(b -> b.at("/roleRef/name").asString().equals(FULLNAME + "-ca-injection")).findFirst().orElseThrow();
        assertBoundToTheServiceAccount(chart, binding);
        assertThat(chart.environment())
                .containsEntry("OPERATOR_WEBHOOK_CAINJECTION_VALIDATINGWEBHOOKCONFIGURATIONS",
                        chart.one("ValidatingWebhookConfiguration").at("/metadata/name").asString())
                .containsEntry("OPERATOR_WEBHOOK_CAINJECTION_MUTATINGWEBHOOKCONFIGURATIONS",
                        chart.one("MutatingWebhookConfiguration").at("/metadata/name").asString())
                .containsEntry("OPERATOR_WEBHOOK_CAINJECTION_CUSTOMRESOURCEDEFINITIONS", crd)
                .containsEntry("OPERATOR_WEBHOOK_CERTIFICATE_DNSNAMES", String.join(",",
                        FULLNAME + "-webhook." + NAMESPACE + ".svc", FULLNAME + "-webhook." + NAMESPACE + ".svc.cluster.local",
                        FULLNAME + "-conversion." + NAMESPACE + ".svc",
                        FULLNAME + "-conversion." + NAMESPACE + ".svc.cluster.local"))
                .doesNotContainKey("OPERATOR_WEBHOOK_CERTIFICATE_CERTFILE");
        for (JsonNode object : chart.documents()) {
            assertThat(object.at("/metadata/annotations/cert-manager.io~1inject-ca-from").isMissingNode())
                    .as("%s", object.path("kind")).isTrue();
        }

        Manifests validatingOnly = Chart.render(RELEASE, NAMESPACE, Map.of("webhooks.enabled", true,
                "webhooks.certificates.mode", "generated", "webhooks.mutating.enabled", false,
                "webhooks.conversion.enabled", false, "crds.install", false));
        assertThat(validatingOnly.all("ClusterRole").stream().map(Chart::permissions).flatMap(List::stream))
                .filteredOn(permission -> permission.contains("webhookconfigurations") || permission.contains("definitions"))
                .containsExactly("admissionregistration.k8s.io/validatingwebhookconfigurations:get@" + FULLNAME,
                        "admissionregistration.k8s.io/validatingwebhookconfigurations:update@" + FULLNAME);
    }

    @Test
    void withGeneratedCertificatesAdmissionPoliciesLetTheOperatorsUpdatesOfItsOwnObjectsChangeOnlyTheCaBundle() {
        Manifests chart = Chart.render(RELEASE, NAMESPACE, Map.of("webhooks.enabled", true,
                "webhooks.certificates.mode", "generated"));
        String operator = "request.userInfo.username == 'system:serviceaccount:" + NAMESPACE + ":" + FULLNAME + "'";

        JsonNode webhooks = named(chart.all("ValidatingAdmissionPolicy"), FULLNAME + "-ca-injection");
        assertThat(webhooks.at("/spec/failurePolicy").asString()).isEqualTo("Fail");
        assertThat(webhooks.at("/spec/matchConstraints/resourceRules/0/resourceNames").valueStream()
                .map(JsonNode::asString)).containsExactly(FULLNAME);
        assertThat(webhooks.at("/spec/matchConstraints/resourceRules/0/operations").valueStream()
                .map(JsonNode::asString)).containsExactly("UPDATE");
        assertThat(webhooks.at("/spec/matchConditions/0/expression").asString()).isEqualTo(operator);
        assertThat(webhooks.at("/spec/validations/0/expression").asString()).contains("w.?rules == o.?rules")
                .contains("w.clientConfig.?service == o.clientConfig.?service")
                .contains("object.metadata.?ownerReferences == oldObject.metadata.?ownerReferences")
                .doesNotContain("caBundle");
        JsonNode crd = named(chart.all("ValidatingAdmissionPolicy"), FULLNAME + "-crd-ca-injection");
        assertThat(crd.at("/spec/matchConstraints/resourceRules/0/resourceNames/0").asString())
                .isEqualTo("staticsites.sample.operatorstarter.dev");
        assertThat(crd.at("/spec/validations/0/expression").asString()).contains("object.spec.versions == oldObject.spec.versions")
                .doesNotContain("caBundle");
        assertThat(chart.all("ValidatingAdmissionPolicyBinding")).extracting(binding -> binding.at("/spec/policyName").asString())
                .containsExactlyInAnyOrder(FULLNAME + "-ca-injection", FULLNAME + "-crd-ca-injection");
        assertThat(chart.all("ValidatingAdmissionPolicyBinding")).allSatisfy(binding -> assertThat(
                binding.at("/spec/validationActions").valueStream().map(JsonNode::asString)).containsExactly("Deny"));

        Manifests certManager = Chart.render(RELEASE, NAMESPACE, Map.of("webhooks.enabled", true,
                "webhooks.certificates.mode", "certManager"));
        assertThat(certManager.all("ValidatingAdmissionPolicy")).as("cert-manager injects; the operator writes nothing").isEmpty();
    }

    @Test
    void withLeaderElectionAnAdmissionPolicyLimitsTheOperatorsLeaseWritesToItsLeaseAndItsRingsMembers() {
        assertThat(Chart.render(RELEASE, NAMESPACE, Map.of("webhooks.certificates.mode", "certManager"))
                .all("ValidatingAdmissionPolicy")).as("no Lease rules while leader election is off").isEmpty();

        JsonNode elected = named(Chart.render(RELEASE, NAMESPACE, Map.of("replicaCount", 2)).all("ValidatingAdmissionPolicy"),
                FULLNAME + "-leases");
        assertThat(elected.at("/spec/validations/0/expression").asString().strip())
                .isEqualTo("request.name == '" + FULLNAME + "-leader'");
        assertThat(elected.at("/spec/matchConditions/1/expression").asString())
                .isEqualTo("request.namespace == '" + NAMESPACE + "'");

        JsonNode sharded = named(Chart.render(RELEASE, NAMESPACE, Map.of("sharding.enabled", true, "sharding.ringName", "web"))
                .all("ValidatingAdmissionPolicy"), FULLNAME + "-leases");
        assertThat(sharded.at("/spec/validations/0/expression").asString())
                .contains("request.name.startsWith('web-')")
                .contains("object.metadata.?labels[?'" + ShardLabels.RING_LABEL + "'] == optional.of('web')");
        assertThat(sharded.at("/spec/matchConstraints/resourceRules/0/operations").valueStream().map(JsonNode::asString))
                .containsExactly("CREATE", "UPDATE", "DELETE");
    }

    @Test
    void generatedCertificatesWorkWithSeveralReplicasEachInjectingItsOwnCa() {
        Manifests chart = Chart.render(RELEASE, NAMESPACE, Map.of("webhooks.enabled", true,
                "webhooks.certificates.mode", "generated", "replicaCount", 3));

        assertThat(chart.one("Deployment").at("/spec/replicas").asInt()).isEqualTo(3);
        // every replica generates its CA and adds it to the bundles, keeping the others' (docs/webhooks/server.md)
        assertThat(chart.environment()).containsEntry("OPERATOR_WEBHOOK_CAINJECTION_VALIDATINGWEBHOOKCONFIGURATIONS",
                        FULLNAME)
                .containsKey("OPERATOR_WEBHOOK_CERTIFICATE_DNSNAMES").doesNotContainKey("OPERATOR_WEBHOOK_CERTIFICATE_CERTFILE")
                .containsEntry("OPERATOR_LEADERELECTION_ENABLED", "true");
        assertThat(chart.all("ClusterRole")).anySatisfy(role -> assertThat(role.at("/metadata/name").asString())
                .isEqualTo(FULLNAME + "-ca-injection"));
        assertThat(chart.all("Service")).anySatisfy(service -> assertThat(service.at("/metadata/name").asString())
                .isEqualTo(FULLNAME + "-webhook"));
    }

    @Test
    void theCrdGainsTheConversionWebhookAndKeepsEverythingElseAsGenerated() throws Exception {
        JsonNode file = Examples.read(Examples.CRD, JsonNode.class);
        JsonNode crd = Chart.render(RELEASE, NAMESPACE, Map.of("webhooks.enabled", true,
                "webhooks.certificates.mode", "generated")).one("CustomResourceDefinition");
        JsonNode conversion = crd.at("/spec/conversion");
        assertThat(conversion.path("strategy").asString()).isEqualTo("Webhook");
        assertThat(conversion.at("/webhook/conversionReviewVersions").valueStream().map(JsonNode::asString))
                .containsExactly("v1");
        JsonNode service = conversion.at("/webhook/clientConfig/service");
        assertThat(service.path("name").asString()).as("the Service that sends to pods not ready yet too")
                .isEqualTo(FULLNAME + "-conversion");
        assertThat(service.path("namespace").asString()).isEqualTo(NAMESPACE);
        assertThat(service.path("path").asString()).isEqualTo("/convert");
        assertThat(service.path("port").asInt()).isEqualTo(443);
        assertThat(crd.at("/metadata/annotations/helm.sh~1resource-policy").asString()).isEqualTo("keep");
        ObjectNode withoutConversion = (ObjectNode) crd.deepCopy();
        ((ObjectNode) withoutConversion.path("spec")).remove("conversion");
        assertThat(withoutConversion).as("the rest as generated, byte for byte once parsed").isEqualTo(file);

        Manifests platformsCrd = Chart.render(RELEASE, NAMESPACE, Map.of("crds.install", false));
        assertThat(platformsCrd.all("CustomResourceDefinition")).isEmpty();
        assertThat(webhookService(platformsCrd, FULLNAME + "-conversion")).as("for the stanza of whoever installs it")
                .isNotNull();
        assertThat(platformsCrd.environment()).as("generated: its caBundle is written all the same")
                .containsEntry("OPERATOR_WEBHOOK_CAINJECTION_CUSTOMRESOURCEDEFINITIONS", "staticsites.sample.operatorstarter.dev");
    }

    @Test
    void theValuesSchemaRejectsAFailurePolicyOrTimeoutTheApiServerWouldRefuse() {
        assertThatThrownBy(() -> Chart.render(RELEASE, NAMESPACE, Map.of("webhooks.failurePolicy", "Retry")))
                .hasMessageContaining("failurePolicy");
        assertThatThrownBy(() -> Chart.render(RELEASE, NAMESPACE, Map.of("webhooks.timeoutSeconds", 31)))
                .hasMessageContaining("timeoutSeconds");
        assertThatThrownBy(() -> Chart.render(RELEASE, NAMESPACE, Map.of("webhooks.certificates.mode", "selfSigned")))
                .hasMessageContaining("mode");
        assertThatThrownBy(() -> Chart.render(RELEASE, NAMESPACE, Map.of("webhooks.validating.path", "validate")))
                .hasMessageContaining("path");
    }

    private static JsonNode webhookService(Manifests chart) {
        return webhookService(chart, FULLNAME + "-webhook");
    }

    private static JsonNode webhookService(Manifests chart, String name) {
        return named(chart.all("Service"), name);
    }

    private static JsonNode named(List<JsonNode> objects, String name) {
        return objects.stream().filter(object -> object.at("/metadata/name").asString().equals(name)).findFirst()
                .orElseThrow(() -> new AssertionError("no object named " + name));
    }

    private static void assertBoundToTheServiceAccount(Manifests chart, JsonNode binding) {
        JsonNode account = chart.one("ServiceAccount");
        assertThat(binding.at("/subjects")).singleElement().satisfies(subject -> {
            assertThat(subject.path("kind").asString()).isEqualTo("ServiceAccount");
            assertThat(subject.path("name").asString()).isEqualTo(account.at("/metadata/name").asString());
            assertThat(subject.path("namespace").asString()).isEqualTo(NAMESPACE);
        });
    }

    private static <T> List<T> concat(List<T> first, List<T> second) {
        return java.util.stream.Stream.concat(first.stream(), second.stream()).toList();
    }

    /**
     * Prometheus names the runtime registers (DESIGN.md, Metrics; docs/metrics/meters.md) and the JVM
     * binders Boot adds.
     */
    private static final Set<String> EXPORTED = Set.of("controller_runtime_reconcile_total",
            "controller_runtime_reconcile_errors_total", "controller_runtime_terminal_reconcile_errors_total",
            "controller_runtime_reconcile_panics_total", "controller_runtime_reconcile_time_seconds",
            "controller_runtime_max_concurrent_reconciles", "controller_runtime_active_workers", "workqueue_depth",
            "workqueue_adds_total", "workqueue_queue_duration_seconds", "workqueue_work_duration_seconds",
            "workqueue_unfinished_work_seconds", "workqueue_longest_running_processor_seconds", "workqueue_retries_total",
            "rest_client_requests_total", "rest_client_request_duration_seconds", "leader_election_master_status",
            "reflector_list_duration_seconds", "reflector_lists_total", "reflector_watches_total",
            "reflector_short_watches_total", "reflector_watch_duration_seconds", "reflector_last_resource_version",
            "watch_events_total", "informer_store_size", "controller_sharding_objects",
            "controller_sharding_member_status", "controller_sharding_drain_acks_total", "controller_sharding_members",
            "controller_sharding_assignments_total", "controller_sharding_movements_total",
            "controller_sharding_drains_total", "controller_sharding_handover_duration_seconds",
            "controller_sharding_pending_drains", "controller_sharding_unassigned_objects", "jvm_memory_used_bytes",
            "jvm_memory_max_bytes", "jvm_gc_pause_seconds", "jvm_threads_live_threads", "process_cpu_usage", "process_uptime_seconds");
}
