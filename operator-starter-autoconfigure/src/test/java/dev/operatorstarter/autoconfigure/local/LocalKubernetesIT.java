package dev.operatorstarter.autoconfigure.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.operatorstarter.autoconfigure.KubernetesConnectionDetails;
import dev.operatorstarter.autoconfigure.Widget;
import dev.operatorstarter.autoconfigure.widgets.WidgetOperatorApplication;
import dev.operatorstarter.client.GroupVersionResource;
import dev.operatorstarter.autoconfigure.webhook.WebhookApplication;
import dev.operatorstarter.autoconfigure.webhook.WebhookServer;
import dev.operatorstarter.client.KubernetesClient;
import dev.operatorstarter.client.ResourceClient;
import dev.operatorstarter.client.config.KubeconfigLoader;
import dev.operatorstarter.client.discovery.ResourceLookup;
import dev.operatorstarter.test.KubernetesCluster;
import dev.operatorstarter.test.KubernetesClusters;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.MutatingWebhookConfiguration;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingWebhookConfiguration;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * An operator run the way the docs run one locally, {@code SpringApplication.from(main).with(LocalKubernetes.class)}:
 * its client talks to the JVM's shared local API server, the classpath's CRDs are installed
 * before it starts, the log says which kubeconfig reaches that server, and the webhooks it serves
 * are registered with that server.
 */
@ExtendWith(OutputCaptureExtension.class)
class LocalKubernetesIT {

    /** The application's own main, as a user's would be. */
    static void applicationMain(String[] args) {
        SpringApplication.run(WidgetOperatorApplication.class, args);
    }

    @Test
    void anApplicationWithLocalKubernetesTalksToTheLocalServerWithItsCrdsInstalled(CapturedOutput output,
            @TempDir Path temp) throws IOException {
        KubernetesCluster cluster = KubernetesClusters.shared();
        Path copy = temp.resolve("target/local-apiserver/kubeconfig");
        try (ConfigurableApplicationContext context = SpringApplication.from(LocalKubernetesIT::applicationMain)
                .with(LocalKubernetes.class)
                .run("--spring.main.web-application-type=none", "--spring.application.name=local-widgets",
                        "--" + LocalKubernetes.KUBECONFIG_PROPERTY + "=" + copy,
                        // A namespace of its own: the shared server holds the other test classes'
                        // widgets, and reconciling them all (rate-limited writes) held the close for 25 s.
                        "--operator.informers.namespaces=local-kubernetes-it")
                .getApplicationContext()) {
            assertThat(context.getBean(KubernetesConnectionDetails.class).clientConfig().server())
                    .isEqualTo(cluster.connection().server());
            // served at once: the CRD was installed and Established before the informers started
            KubernetesClient client = context.getBean(KubernetesClient.class);
            assertThat(client.discovery().lookup(List.of(new GroupVersionResource("starter.operatorstarter.dev", "v1",
                    "widgets")), Duration.ofSeconds(10))).singleElement().isInstanceOf(ResourceLookup.Served.class);
            assertThat(client.resources(Widget.class).inNamespace("default").list().items()).isNotNull();
            assertThat(output).contains("CRDs installed from crds/widgets.yaml").contains("export KUBECONFIG=" + copy)
                    .contains("webhooks not served (operator.webhook.enabled is not true)");
            assertThat(copy).hasSameTextualContentAs(cluster.connection().kubeconfig());
            assertThat(Files.getPosixFilePermissions(copy)).as("it holds the administrator's key")
                    .isEqualTo(PosixFilePermissions.fromString("rw-------"));
        }
    }

    /**
     * With LocalKubernetes, an application that serves webhooks registers them with the local
     * server without a property of its own, says so, names a CRD it cannot point at its converter
     * (the gadgets CRD is not under crds/), and removes its configuration when it stops.
     */
    @Test
    void theServedWebhooksAreRegisteredWithTheLocalServerAndRemovedWhenTheApplicationStops(CapturedOutput output) {
        KubernetesClient admin = KubernetesClient.create(KubeconfigLoader.load(
                KubernetesClusters.shared().connection().kubeconfig(), null));
        ResourceClient<ValidatingWebhookConfiguration> configurations = admin.resources(
                ValidatingWebhookConfiguration.class);
        await().atMost(Duration.ofSeconds(60)).until(() -> admin.apiextensionsV1().customResourceDefinitions()
                .find("gadgets.webhooks.operatorstarter.dev").isEmpty()); // left by the webhook ITs, being deleted
        try (ConfigurableApplicationContext context = SpringApplication.from(
                        args -> SpringApplication.run(WebhookApplication.class, args))
                .with(LocalKubernetes.class)
                .run("--spring.main.web-application-type=none", "--spring.application.name=local-webhooks",
                        "--operator.leader-election.enabled=false", "--operator.webhook.enabled=true",
                        "--operator.webhook.port=0",
                        // only this test's objects: the API server is shared with the other test classes
                        "--operator.webhook.register.object-selector[webhooks.operatorstarter.dev/it]=local")
                .getApplicationContext()) {
            int port = context.getBean(WebhookServer.class).port();

            assertThat(configurations.get("local-webhooks").getWebhooks()).extracting(webhook -> webhook
                    .getClientConfig().getUrl()).contains("https://127.0.0.1:" + port + "/validate-widgets");
            assertThat(output).contains("webhooks registered with this server once served")
                    .contains("Registered with the API server: ValidatingWebhookConfiguration local-webhooks (")
                    .contains("CustomResourceDefinition gadgets.webhooks.operatorstarter.dev is not installed, so "
                            + "/convert-gadgets cannot convert it");
            assertThat(context.getBean("webhooksHealthIndicator", HealthIndicator.class).health().getStatus())
                    .isEqualTo(Status.DOWN);
        } finally {
            assertThat(configurations.find("local-webhooks")).as("removed on close").isEmpty();
            assertThat(admin.resources(MutatingWebhookConfiguration.class).find("local-webhooks")).isEmpty();
            admin.close();
        }
    }

    @Test
    void theCopyReplacesAFileLeftByAnEarlierRun(@TempDir Path temp) throws IOException {
        Path stale = Files.writeString(temp.resolve("kubeconfig"), "stale");
        Path kubeconfig = KubernetesClusters.shared().connection().kubeconfig();

        assertThat(LocalKubernetes.copyKubeconfig(KubernetesClusters.shared().connection(), stale))
                .isEqualTo(stale.toAbsolutePath());
        assertThat(stale).as("replaced").hasSameTextualContentAs(kubeconfig);
    }

    @Test
    void theDefaultCrdsAreEveryYamlFileUnderCrdsOnTheClasspath() {
        assertThat(LocalKubernetes.crdsOnClasspath(LocalKubernetesIT.class.getClassLoader()))
                .containsExactly("crds/widgets.yaml");
    }
}
