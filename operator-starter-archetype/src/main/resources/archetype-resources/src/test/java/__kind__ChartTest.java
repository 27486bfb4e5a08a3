package ${package};

import static org.assertj.core.api.Assertions.assertThat;
#if ($webhook == 'true')
import static org.assertj.core.api.Assertions.assertThatThrownBy;
#end

import dev.operatorstarter.test.helm.HelmChart;
import dev.operatorstarter.test.helm.RenderedChart;
import io.fabric8.kubernetes.api.model.HasMetadata;
import java.nio.file.Path;
#if ($webhook == 'true')
import java.util.LinkedHashMap;
#end
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * The chart as Helm lints and renders it (no cluster needed): its Role lets the operator do what
 * its code does, with the group and plural taken from the ${kind} class, so a change in the code
 * that the chart missed fails here rather than in a cluster, after the cache-sync timeout.
 * ${kind}ChartIT installs the chart and runs the operator with its RBAC.
 */
class ${kind}ChartTest {

    private static final HelmChart CHART = HelmChart.at(Path.of("chart"));
    private static final String RELEASE = "${artifactId}";
    private static final String NAMESPACE = "operators";

    private final String group = HasMetadata.getGroup(${kind}.class);
    private final String plural = HasMetadata.getPlural(${kind}.class);

    @Test
    void helmLintsTheChartStrictlyWithoutFindings() {
        assertThat(CHART.lint()).isEmpty();
    }

    @Test
    void theRenderedRoleLetsTheOperatorWatchItsResourceWriteItsStatusKeepItsConfigMapsAndHoldItsLease() {
        RenderedChart chart = CHART.render(RELEASE, NAMESPACE, Map.of());
        JsonNode role = chart.one("Role");

        assertThat(List.of(group + "/" + plural + ":list", group + "/" + plural + ":watch",
                group + "/" + plural + "/status:patch",
                "/configmaps:list", "/configmaps:watch", "/configmaps:patch",
                "coordination.k8s.io/leases:get@${artifactId}-leader", "coordination.k8s.io/leases:update@${artifactId}-leader"))
                .as("what the operator does that the Role does not allow")
                .filteredOn(permission -> !RenderedChart.allows(role, permission)).isEmpty();
        assertThat(chart.all("ClusterRole")).as("cluster-wide, only named objects")
                .allSatisfy(clusterRole -> assertThat(RenderedChart.permissions(clusterRole)).allMatch(p -> p.contains("@")));
    }
#if ($webhook == 'true')

    @Test
    void theWebhookConfigurationSendsTheReleaseNamespacesCreatesAndUpdatesToTheValidatorThroughTheService() {
        RenderedChart chart = CHART.render(RELEASE, NAMESPACE, Map.of());
        JsonNode configuration = chart.one("ValidatingWebhookConfiguration");
        JsonNode webhook = configuration.at("/webhooks/0");
        JsonNode service = chart.one("Service");

        assertThat(webhook.at("/rules/0/apiGroups")).extracting(JsonNode::asString).containsExactly(group);
        assertThat(webhook.at("/rules/0/resources")).extracting(JsonNode::asString).containsExactly(plural);
        assertThat(webhook.at("/rules/0/operations")).extracting(JsonNode::asString).containsExactly("CREATE", "UPDATE");
        assertThat(webhook.at("/namespaceSelector/matchExpressions/0/values")).extracting(JsonNode::asString)
                .containsExactly(NAMESPACE);
        assertThat(webhook.at("/clientConfig/service/path").asString()).isEqualTo(${kind}Validator.PATH);
        assertThat(webhook.at("/clientConfig/service/name").asString()).isEqualTo(service.at("/metadata/name").asString());
        assertThat(webhook.at("/clientConfig/service/namespace").asString()).isEqualTo(NAMESPACE);
    }

    @Test
    void theOperatorServesTheWebhookOnItsPortAndMayWriteTheCaBundleOfThatConfigurationOnly() {
        RenderedChart chart = CHART.render(RELEASE, NAMESPACE, Map.of());
        String configuration = chart.one("ValidatingWebhookConfiguration").at("/metadata/name").asString();
        JsonNode container = chart.one("Deployment").at("/spec/template/spec/containers/0");
        Map<String, String> environment = new LinkedHashMap<>();
        container.path("env").forEach(variable -> environment.put(variable.path("name").asString(),
                variable.path("value").asString()));

        String service = chart.one("Service").at("/metadata/name").asString() + "." + NAMESPACE + ".svc";
        assertThat(environment).containsEntry("OPERATOR_WEBHOOK_ENABLED", "true")
                .containsEntry("OPERATOR_WEBHOOK_CERTIFICATE_DNSNAMES", service + "," + service + ".cluster.local")
                .containsEntry("OPERATOR_WEBHOOK_CAINJECTION_VALIDATINGWEBHOOKCONFIGURATIONS", configuration);
        assertThat(webhookPort(chart)).isEqualTo(environment.get("OPERATOR_WEBHOOK_PORT"));
        JsonNode injection = chart.one("ClusterRole");
        assertThat(RenderedChart.permissions(injection)).containsExactly(
                "admissionregistration.k8s.io/validatingwebhookconfigurations:get@" + configuration,
                "admissionregistration.k8s.io/validatingwebhookconfigurations:update@" + configuration);
    }

    @Test
    void theNetworkPolicyAdmitsTheApiServerToTheWebhookPortAndNeedsItsAddresses() {
        RenderedChart chart = CHART.render(RELEASE, NAMESPACE, Map.of("networkPolicy.enabled", true,
                "networkPolicy.apiServerCidrs[0]", "10.0.0.0/24"));
        JsonNode ingress = chart.one("NetworkPolicy").at("/spec/ingress/0");

        assertThat(ingress.at("/from/0/ipBlock/cidr").asString()).isEqualTo("10.0.0.0/24");
        assertThat(ingress.at("/ports/0/port").asString()).isEqualTo(webhookPort(chart));
        assertThatThrownBy(() -> CHART.render(RELEASE, NAMESPACE, Map.of("networkPolicy.enabled", true)))
                .hasMessageContaining("networkPolicy.apiServerCidrs");
    }

    /** The operator container's port named webhook. */
    private static String webhookPort(RenderedChart chart) {
        for (JsonNode port : chart.one("Deployment").at("/spec/template/spec/containers/0/ports")) {
            if (port.path("name").asString().equals("webhook")) {
                return port.path("containerPort").asString();
            }
        }
        throw new AssertionError("the operator container has no port named webhook");
    }
#end
}
