package dev.operatorstarter.autoconfigure.webhook;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.operatorstarter.client.KubernetesClient;
import dev.operatorstarter.client.ResourceClient;
import dev.operatorstarter.client.config.KubeconfigLoader;
import dev.operatorstarter.test.ClusterConnection;
import dev.operatorstarter.test.KubernetesTest;
import dev.operatorstarter.time.TimeSource;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.RuleWithOperationsBuilder;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingWebhook;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingWebhookConfiguration;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingWebhookConfigurationBuilder;
import java.nio.charset.StandardCharsets;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;

/**
 * The caBundle as a merged bundle, on the real API server: concurrent injectors each keep their
 * CA. Each webhook here matches only ConfigMaps labelled for it.
 */
@KubernetesTest
class WebhookCertificatesIT {

    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final String RUN = UUID.randomUUID().toString().substring(0, 8);
    private static final String LABEL = "certificates.operatorstarter.dev/it";
    private static final Duration YEAR = Duration.ofDays(365);

    private static KubernetesClient admin;

    @BeforeAll
    static void connect(ClusterConnection connection) {
        admin = KubernetesClient.create(KubeconfigLoader.load(connection.kubeconfig(), null));
    }

    @AfterAll
    static void close() {
        admin.close();
    }

    @Test
    void injectorsWritingOneObjectAtOnceEachKeepTheirCa() throws Exception {
        String name = "certificates-concurrent-" + RUN;
        create(name, Map.of("concurrent", 1));
        try {
            List<String> cas = IntStream.range(0, 6).mapToObj(i -> generated(YEAR).caPem()).toList();
            CountDownLatch go = new CountDownLatch(1);
            List<CompletableFuture<Void>> writers = new ArrayList<>();
            for (String ca : cas) {
                CaBundleInjector injector = new CaBundleInjector(admin, properties(Map.of(
                        "ca-injection.validating-webhook-configurations[0]", name)).caInjection(), TimeSource.system());
                writers.add(CompletableFuture.runAsync(() -> {
                    try {
                        go.await();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        throw new IllegalStateException(e);
                    }
                    // a pass that lost every conflict retry says so, and the next pass tries again
                    await().atMost(WAIT).until(() -> injector.inject(ca).pending().isEmpty());
                }));
            }
            go.countDown();
            CompletableFuture.allOf(writers.toArray(CompletableFuture[]::new)).join();

            assertThat(bundles(name)).singleElement().satisfies(bundle -> assertThat(bundle)
                    .containsExactlyInAnyOrderElementsOf(cas.stream().map(WebhookCertificatesIT::certificate).toList()));
        } finally {
            delete(name);
        }
    }

    private static WebhookProperties properties(Map<String, String> values) {
        Map<String, String> all = new HashMap<>(Map.of("port", "0", "address", "127.0.0.1", "enabled", "true"));
        all.putAll(values);
        Map<String, String> prefixed = new LinkedHashMap<>();
        all.forEach((key, value) -> prefixed.put("operator.webhook." + key, value));
        return new Binder(new MapConfigurationPropertySource(prefixed)).bindOrCreate("operator.webhook",
                WebhookProperties.class);
    }

    private static ServingKey generated(Duration validity) {
        return new GeneratedCertificate(List.of("localhost"), List.of("127.0.0.1"), validity, TimeSource.system()).load();
    }

    /** A ValidatingWebhookConfiguration with a ConfigMap webhook per entry: its name, the port it calls. */
    private static void create(String name, Map<String, Integer> webhooks) {
        List<ValidatingWebhook> list = new ArrayList<>();
        webhooks.forEach((webhook, port) -> list.add(WebhooksIT.validating(webhook + ".certificates.operatorstarter.dev",
                port, "/validate-configmaps", "Fail", new RuleWithOperationsBuilder().withApiGroups("")
                        .withApiVersions("v1").withResources("configmaps").withOperations("CREATE").build(),
                Map.of(LABEL, webhook + "-" + RUN))));
        admin.resources(ValidatingWebhookConfiguration.class).create(new ValidatingWebhookConfigurationBuilder()
                .withNewMetadata().withName(name).endMetadata().withWebhooks(list).build());
    }

    private static void delete(String name) {
        ResourceClient<ValidatingWebhookConfiguration> configurations = admin.resources(ValidatingWebhookConfiguration.class);
        configurations.find(name).ifPresent(found -> configurations.delete(name));
    }

    /** The certificates of each webhook's caBundle. */
    private static List<List<X509Certificate>> bundles(String name) {
        return admin.resources(ValidatingWebhookConfiguration.class).get(name).getWebhooks().stream()
                .map(webhook -> CaBundleTest.certificates(decode(webhook.getClientConfig().getCaBundle()))).toList();
    }

    private static String decode(String caBundle) {
        return new String(Base64.getDecoder().decode(caBundle), StandardCharsets.US_ASCII);
    }

    private static X509Certificate certificate(String pem) {
        return CaBundleTest.certificate(pem);
    }
}
