package dev.operatorstarter.autoconfigure.widgets;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;
import static org.awaitility.Awaitility.await;

import dev.operatorstarter.autoconfigure.Widget;
import dev.operatorstarter.client.KubernetesClient;
import dev.operatorstarter.client.ResourceClient;
import dev.operatorstarter.test.ClusterConnection;
import dev.operatorstarter.test.KubernetesTest;
import dev.operatorstarter.test.TestNamespace;
import io.fabric8.kubernetes.api.model.ConfigMap;
import java.time.Duration;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * With {@code spring.threads.virtual.enabled=true} on Java 21+, reconciles run on virtual threads
 * for real: a whole application reconciles Widgets on the real API server with eight workers, and
 * each reconcile, blocking on the client from its virtual thread, writes down where it ran. The
 * build runs this on a Java 21+ JVM when it finds one (the java21 Failsafe execution, see
 * docs/testing/this-project.md); on Java 17 it skips.
 */
@Tag("java21")
@KubernetesTest(crds = "crds/widgets.yaml")
class VirtualThreadsIT {

    private static final int WIDGETS = 24;

    @Test
    void everyReconcileRunsOnAVirtualThreadAndItsBlockingClientCallsComplete(ClusterConnection connection,
            TestNamespace namespace) {
        assumeThat(Runtime.version().feature()).as("virtual threads need Java 21").isGreaterThanOrEqualTo(21);
        try (ConfigurableApplicationContext context = new SpringApplicationBuilder(VirtualThreadsApplication.class)
                .web(WebApplicationType.NONE)
                .properties("operator.client.kubeconfig=" + connection.kubeconfig(), "spring.threads.virtual.enabled=true",
                        "operator.controllers.workers=8", "operator.leader-election.enabled=false",
                        "operator.informers.namespaces=" + namespace.name())
                .run()) {
            KubernetesClient client = context.getBean(KubernetesClient.class);
            ResourceClient<Widget> widgets = client.resources(Widget.class).inNamespace(namespace.name());
            IntStream.range(0, WIDGETS).forEach(i -> widgets.create(Widget.named("w" + i, "blue")));

            List<ConfigMap> reports = await().atMost(Duration.ofSeconds(60)).until(
                    () -> client.coreV1().configMaps().inNamespace(namespace.name()).list().items().stream()
                            .filter(each -> each.getMetadata().getName().endsWith("-thread")).toList(),
                    found -> found.size() == WIDGETS);

            assertThat(reports).allSatisfy(report -> {
                assertThat(report.getData()).as(report.getMetadata().getName()).containsEntry("virtual", "true");
                assertThat(report.getData().get("name")).startsWith("controller-widget-worker-");
            });
        }
    }
}
