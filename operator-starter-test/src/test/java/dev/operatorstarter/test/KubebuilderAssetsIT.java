package dev.operatorstarter.test;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import dev.operatorstarter.test.internal.Await;
import dev.operatorstarter.test.internal.KubernetesApi;
import dev.operatorstarter.test.local.EnvtestFolders;
import dev.operatorstarter.test.local.LocalApiServer;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/**
 * The local backend from envtest's binary folder ({@code KUBEBUILDER_ASSETS}: etcd and
 * kube-apiserver, no kube-controller-manager), prepared from the cache as {@code setup-envtest}
 * would lay it out.
 */
class KubebuilderAssetsIT {

    @Test
    void aFolderWithoutAControllerManagerRunsTheServerWarnsAndStillGivesNamespacesTheirServiceAccount(
            @TempDir Path assets) throws IOException {
        EnvtestFolders.fromCache(assets);
        Logger binariesLog = (Logger) LoggerFactory.getLogger("dev.operatorstarter.test.local.LocalBinaries");
        ListAppender<ILoggingEvent> logged = new ListAppender<>();
        logged.start();
        binariesLog.addAppender(logged);
        SharedCluster shared = new SharedCluster(() -> LocalApiServer.start(EnvtestFolders.kubebuilderAssets(assets)));
        LocalApiServer server = null;
        try {
            server = (LocalApiServer) shared.cluster();

            assertThat(server.processIds()).containsOnlyKeys("etcd", "kube-apiserver");
            assertThat(server.hasControllerManager()).isFalse();
            assertThat(logged.list).map(ILoggingEvent::getFormattedMessage).anySatisfy(message -> assertThat(message)
                    .contains(assets.toString()).contains("has no kube-controller-manager")
                    .contains("not garbage-collected").contains("deleted namespaces stay Terminating"));

            KubernetesApi api = ClusterAccess.api(server.connection());
            assertThat(api.get("/api/v1/namespaces/default/serviceaccounts/default").isSuccess()).isTrue();
            TestNamespace namespace = shared.access().createNamespace("KubebuilderAssetsIT");
            assertThat(api.get("/api/v1/namespaces/" + namespace.name() + "/serviceaccounts/default").isSuccess())
                    .as("the default service account the harness created").isTrue();

            shared.installCrdsOnce("crds/widgets.yaml", getClass().getClassLoader());
            // Established comes a moment before the new resource's handler answers.
            Await.condition("widgets to be served", Duration.ofSeconds(30), Duration.ofMillis(100),
                    () -> api.get("/apis/test.operatorstarter.dev/v1/namespaces/" + namespace.name() + "/widgets")
                            .isSuccess());
        } finally {
            binariesLog.detachAppender(logged);
            if (server != null) {
                server.close();
            }
        }
    }
}
