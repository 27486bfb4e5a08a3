package dev.operatorstarter.autoconfigure.local;

import static org.assertj.core.api.Assertions.assertThat;

import dev.operatorstarter.autoconfigure.KubernetesConnectionDetails;
import dev.operatorstarter.autoconfigure.Widget;
import dev.operatorstarter.autoconfigure.widgets.WidgetOperatorApplication;
import dev.operatorstarter.client.GroupVersionResource;
import dev.operatorstarter.client.KubernetesClient;
import dev.operatorstarter.client.discovery.ResourceLookup;
import dev.operatorstarter.test.KubernetesCluster;
import dev.operatorstarter.test.KubernetesClusters;
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
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * An operator run the way the docs run one locally, {@code SpringApplication.from(main).with(LocalKubernetes.class)}:
 * its client talks to the JVM's shared local API server, the classpath's CRDs are installed
 * before it starts, and the log says which kubeconfig reaches that server.
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
                        "--" + LocalKubernetes.KUBECONFIG_PROPERTY + "=" + copy)
                .getApplicationContext()) {
            assertThat(context.getBean(KubernetesConnectionDetails.class).clientConfig().server())
                    .isEqualTo(cluster.connection().server());
            // served at once: the CRD was installed and Established before the informers started
            KubernetesClient client = context.getBean(KubernetesClient.class);
            assertThat(client.discovery().lookup(List.of(new GroupVersionResource("starter.operatorstarter.dev", "v1",
                    "widgets")), Duration.ofSeconds(10))).singleElement().isInstanceOf(ResourceLookup.Served.class);
            assertThat(client.resources(Widget.class).inNamespace("default").list().items()).isNotNull();
            assertThat(output).contains("CRDs installed from crds/widgets.yaml").contains("export KUBECONFIG=" + copy);
            assertThat(copy).hasSameTextualContentAs(cluster.connection().kubeconfig());
            assertThat(Files.getPosixFilePermissions(copy)).as("it holds the administrator's key")
                    .isEqualTo(PosixFilePermissions.fromString("rw-------"));
        }
    }

    @Test
    void theCopyReplacesAFileLeftByAnEarlierRun(@TempDir Path temp) throws IOException {
        Path stale = Files.writeString(temp.resolve("kubeconfig"), "stale");
        Path kubeconfig = KubernetesClusters.shared().connection().kubeconfig();

        assertThat(LocalKubernetes.copyOwnerOnly(kubeconfig, stale)).isEqualTo(stale.toAbsolutePath());
        assertThat(stale).as("replaced").hasSameTextualContentAs(kubeconfig);
    }

    @Test
    void theDefaultCrdsAreEveryYamlFileUnderCrdsOnTheClasspath() {
        assertThat(LocalKubernetes.crdsOnClasspath(LocalKubernetesIT.class.getClassLoader()))
                .containsExactly("crds/widgets.yaml");
    }
}
