package dev.operatorstarter.test.spring;

import static org.assertj.core.api.Assertions.assertThat;

import dev.operatorstarter.test.ClusterConnection;
import dev.operatorstarter.test.Eventually;
import dev.operatorstarter.test.KubernetesTest;
import dev.operatorstarter.test.TestNamespace;
import dev.operatorstarter.test.internal.KubernetesApi;
import dev.operatorstarter.test.internal.Kubeconfig;
import dev.operatorstarter.test.internal.Tls;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.context.SmartLifecycle;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;
import org.springframework.test.context.junit.jupiter.SpringJUnitConfig;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * A plain Spring test with {@code @KubernetesTest} gets the cluster's kubeconfig in its environment
 * and the annotation's CRDs before its beans are created, without connection code.
 *
 * <p>{@code PER_CLASS}: JUnit builds the test instance, and Spring its context, before the
 * extension's {@code beforeAll} runs; and only this class names {@code crds/gadgets.yaml}. So a
 * Gadget CRD that the beans find Established was installed by the Spring integration.
 */
@SpringJUnitConfig(SpringTestContextIT.GadgetOperator.class)
@KubernetesTest(crds = "crds/gadgets.yaml")
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SpringTestContextIT {

    private static final String KUBECONFIG_PROPERTY = "operator.client.kubeconfig";
    private static final String GADGET_CRD = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions/gadgets.test.operatorstarter.dev";

    @Autowired
    private Environment environment;

    @Autowired
    private GadgetCrdAtStartup crdAtStartup;

    @Test
    void theKubeconfigPropertyIsTheClustersAdminKubeconfig(ClusterConnection connection) {
        String kubeconfig = environment.getProperty(KUBECONFIG_PROPERTY);

        assertThat(kubeconfig).isEqualTo(connection.kubeconfig().toAbsolutePath().toString());
        assertThat(Files.isRegularFile(Path.of(kubeconfig))).as("%s is a file", kubeconfig).isTrue();
        assertThat(crdAtStartup.server).as("the server a bean reached through the property")
                .isEqualTo(connection.server().toString());
    }

    @Test
    void theAnnotationsCrdWasEstablishedBeforeTheBeansWereCreated() {
        assertThat(crdAtStartup.status).as("GET the Gadget CRD from a bean's constructor").isEqualTo(200);
        assertThat(crdAtStartup.established).isTrue();
    }

    @Test
    void theApplicationReconcilesAGadgetAndTheTestAwaitsTheOutcome(ClusterConnection connection,
            TestNamespace namespace) {
        KubernetesApi api = KubernetesApi.of(connection.server(), connection.sslContext(), connection.bearerToken());
        String gadgets = "/apis/test.operatorstarter.dev/v1/namespaces/" + namespace.name() + "/gadgets";
        api.post(gadgets, gadget("g1")).orThrow("create gadget g1");

        JsonNode gadget = Eventually.await("gadget g1 to be marked Seen", Duration.ofSeconds(30),
                () -> api.get(gadgets + "/g1").orThrow("read gadget g1"),
                g -> g.path("status").path("phase").asString("").equals("Seen"));

        assertThat(gadget.path("metadata").path("name").asString()).isEqualTo("g1");
    }

    private static ObjectNode gadget(String name) {
        ObjectNode gadget = KubernetesApi.object().put("apiVersion", "test.operatorstarter.dev/v1").put("kind", "Gadget");
        gadget.putObject("metadata").put("name", name);
        gadget.putObject("spec").put("colour", "blue");
        return gadget;
    }

    /** A stand-in for an operator's application: it knows the cluster only through its environment. */
    @Configuration(proxyBeanMethods = false)
    static class GadgetOperator {

        @Bean
        KubernetesApi kubernetesApi(Environment environment) {
            Kubeconfig.Entry entry = Kubeconfig.read(Path.of(environment.getRequiredProperty(KUBECONFIG_PROPERTY)), null);
            return KubernetesApi.of(entry.server(),
                    Tls.sslContext(entry.certificateAuthorityPem(), entry.clientCertificatePem(), entry.clientKeyPem()),
                    entry.bearerToken());
        }

        @Bean
        GadgetCrdAtStartup gadgetCrdAtStartup(KubernetesApi api) {
            return new GadgetCrdAtStartup(api);
        }

        @Bean
        GadgetMarker gadgetMarker(KubernetesApi api) {
            return new GadgetMarker(api);
        }
    }

    /** What the Gadget CRD looked like when the application's beans were created. */
    static final class GadgetCrdAtStartup {

        final String server;
        final int status;
        final boolean established;

        GadgetCrdAtStartup(KubernetesApi api) {
            KubernetesApi.Response crd = api.get(GADGET_CRD);
            this.server = api.server().toString();
            this.status = crd.status();
            this.established = crd.body() != null && hasTrueCondition(crd.body(), "Established");
        }

        private static boolean hasTrueCondition(JsonNode object, String type) {
            for (JsonNode condition : object.path("status").path("conditions")) {
                if (type.equals(condition.path("type").asString("")) && "True".equals(condition.path("status").asString(""))) {
                    return true;
                }
            }
            return false;
        }
    }

    /** A reconcile loop in miniature: every 100 ms, marks each Gadget that has no phase as Seen. */
    static final class GadgetMarker implements SmartLifecycle {

        private final KubernetesApi api;
        private @Nullable ScheduledExecutorService executor;

        GadgetMarker(KubernetesApi api) {
            this.api = api;
        }

        @Override
        public synchronized void start() {
            executor = Executors.newSingleThreadScheduledExecutor(task -> {
                Thread thread = new Thread(task, "gadget-marker");
                thread.setDaemon(true);
                return thread;
            });
            executor.scheduleWithFixedDelay(this::markAll, 0, 100, TimeUnit.MILLISECONDS);
        }

        @Override
        public synchronized void stop() {
            if (executor != null) {
                executor.shutdownNow();
                executor = null;
            }
        }

        @Override
        public synchronized boolean isRunning() {
            return executor != null;
        }

        private void markAll() {
            try {
                KubernetesApi.Response list = api.get("/apis/test.operatorstarter.dev/v1/gadgets");
                if (list.body() == null) {
                    return;
                }
                for (JsonNode item : list.body().path("items")) {
                    if (item.path("status").path("phase").isMissingNode()) {
                        ObjectNode marked = ((ObjectNode) item).put("apiVersion", "test.operatorstarter.dev/v1")
                                .put("kind", "Gadget");
                        marked.putObject("status").put("phase", "Seen");
                        JsonNode metadata = item.path("metadata");
                        // A conflict or a namespace being deleted is retried on the next pass, as a reconciler would.
                        api.put("/apis/test.operatorstarter.dev/v1/namespaces/" + metadata.path("namespace").asString()
                                + "/gadgets/" + metadata.path("name").asString() + "/status", marked);
                    }
                }
            } catch (RuntimeException e) {
                // Tried again on the next pass; a failing pass must not end the schedule.
            }
        }
    }
}
