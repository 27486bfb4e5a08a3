package ${package};

import static org.assertj.core.api.Assertions.assertThat;
#if ($webhook == 'true')
import static org.assertj.core.api.Assertions.catchThrowable;
#end

import dev.operatorstarter.autoconfigure.local.DeploymentPod;
#if ($webhook == 'true')
import dev.operatorstarter.autoconfigure.webhook.WebhookServer;
#end
import dev.operatorstarter.client.KubernetesClient;
import dev.operatorstarter.client.ResourceClient;
import dev.operatorstarter.client.config.KubeconfigLoader;
#if ($webhook == 'true')
import dev.operatorstarter.client.rest.ApiException;
#end
import dev.operatorstarter.test.ClusterConnection;
import dev.operatorstarter.test.Eventually;
import dev.operatorstarter.test.KubernetesTest;
import dev.operatorstarter.test.TestNamespace;
import dev.operatorstarter.test.helm.ChartRelease;
import dev.operatorstarter.test.helm.HelmChart;
import io.fabric8.kubernetes.api.model.ConfigMap;
#if ($webhook == 'true')
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingWebhookConfiguration;
#end
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Collection;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * The chart installed by Helm into the local API server, and the operator run as a pod of its
 * Deployment: with a token of the chart's ServiceAccount (so the chart's RBAC is all it may do)
 * through the in-cluster configuration, and the Deployment's environment (so it watches the release
 * namespace only). It reconciles a ${kind} and holds its leader Lease. A rule the operator needs that
 * the chart lacks fails here: a refused list or watch stops the start, naming the verb and the
 * resource; a refused write fails the reconcile, which the status and the error count show.
#if ($webhook == 'true')
 * The chart's validating webhook, pointed at this JVM, refuses a blank message through the API
 * server, with the CA the operator wrote into the configuration with the chart's RBAC.
#end
 */
@KubernetesTest(crds = "crds/${kind.toLowerCase()}s.${apiGroup}.yaml")
class ${kind}ChartIT {

    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final HelmChart CHART = HelmChart.at(Path.of("chart"));

    @Test
    void asTheChartsServiceAccountTheOperatorReconcilesA${kind}AndHoldsItsLease(ClusterConnection connection,
            TestNamespace namespace, @TempDir Path folder) {
        try (KubernetesClient admin = KubernetesClient.create(KubeconfigLoader.load(connection.kubeconfig(), null));
                ChartRelease release = CHART.install(connection, namespace.name(), "${artifactId}", Map.of());
                ConfigurableApplicationContext operator = DeploymentPod.create(connection, namespace.name(), release.name(), folder)
                        // pods share this host: its servers on free ports
                        .withEnvironment("SERVER_PORT", "0").withEnvironment("MANAGEMENT_SERVER_PORT", "0")
#if ($webhook == 'true')
                        .withEnvironment("OPERATOR_WEBHOOK_PORT", "0").withEnvironment("OPERATOR_WEBHOOK_ADDRESS", "127.0.0.1")
#end
                        .run(${kind}Operator.class)) {
            assertThat(operator.getBean(KubernetesClient.class).config().source()).startsWith("in-cluster");
            ResourceClient<${kind}> resources = admin.resources(${kind}.class).inNamespace(namespace.name());
#if ($webhook == 'true')
            pointTheWebhookAtThisJvm(admin, release, operator.getBean(WebhookServer.class).port());
            Throwable denied = Eventually.await("the webhook to refuse a blank message", WAIT,
                    () -> catchThrowable(() -> resources.create(${kind}.of("blank", " "))),
                    refused -> refused instanceof ApiException.Forbidden && refused.getMessage().contains("must not be blank"));
            assertThat(denied).hasMessageContaining("denied the request");
#end

            resources.create(${kind}.of("charted", "Hello from the chart"));

            ${kind} reconciled = Eventually.await("the status of ${kind} charted", WAIT, () -> resources.get("charted"),
                    resource -> resource.getStatus() != null);
            assertThat(reconciled.getStatus()).isEqualTo(new ${kind}Status(1L, "charted-${kind.toLowerCase()}"));
            ConfigMap configMap = admin.coreV1().configMaps().inNamespace(namespace.name()).get("charted-${kind.toLowerCase()}");
            assertThat(configMap.getData()).containsEntry("message", "Hello from the chart");
            Lease lease = Eventually.await("the leader Lease", WAIT,
                    () -> admin.coordinationV1().leases().inNamespace(namespace.name()).find("${artifactId}-leader"),
                    Optional::isPresent).orElseThrow();
            assertThat(lease.getSpec().getHolderIdentity()).isNotBlank();
            MeterRegistry meters = operator.getBean(MeterRegistry.class);
            assertThat(count(meters.find("controller.runtime.reconcile").tag("result", "success").counters()))
                    .as("reconciles by this operator").isPositive();
            assertThat(count(meters.find("controller.runtime.reconcile.errors").counters())).as("reconciles refused").isZero();
        }
    }

    private static double count(Collection<Counter> counters) {
        return counters.stream().mapToDouble(Counter::count).sum();
    }
#if ($webhook == 'true')

    /**
     * The chart's webhook calls the Service, which nothing serves here (no kubelet, no kube-proxy):
     * its clientConfig is pointed at this JVM's webhook port instead, as an administrator would,
     * keeping the caBundle the operator writes.
     */
    private static void pointTheWebhookAtThisJvm(KubernetesClient admin, ChartRelease release, int port) {
        ResourceClient<ValidatingWebhookConfiguration> configurations = admin.resources(ValidatingWebhookConfiguration.class);
        String name = release.name() + "-" + release.namespace();
        // read, change, write; again on a conflict with the operator's caBundle write
        Eventually.await("the webhook configuration " + name + " pointed at port " + port, WAIT, () -> {
            ValidatingWebhookConfiguration configuration = configurations.get(name);
            configuration.getWebhooks().forEach(webhook -> {
                webhook.getClientConfig().setService(null);
                webhook.getClientConfig().setUrl("https://127.0.0.1:" + port + ${kind}Validator.PATH);
            });
            configurations.update(configuration);
            return true;
        });
    }
#end
}
