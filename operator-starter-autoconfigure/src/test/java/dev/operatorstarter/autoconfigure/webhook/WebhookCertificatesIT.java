package dev.operatorstarter.autoconfigure.webhook;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.awaitility.Awaitility.await;

import dev.operatorstarter.client.KubernetesClient;
import dev.operatorstarter.client.ResourceClient;
import dev.operatorstarter.client.RetryOnConflict;
import dev.operatorstarter.client.config.KubeconfigLoader;
import dev.operatorstarter.client.rest.ApiException;
import dev.operatorstarter.test.ClusterConnection;
import dev.operatorstarter.test.KubernetesTest;
import dev.operatorstarter.test.TestNamespace;
import dev.operatorstarter.testing.FakeTimeSource;
import dev.operatorstarter.time.TimeSource;
import dev.operatorstarter.webhook.AdmissionEndpoint;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.RuleWithOperationsBuilder;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingWebhook;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingWebhookConfiguration;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingWebhookConfigurationBuilder;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
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
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;
import org.springframework.context.ConfigurableApplicationContext;
import tools.jackson.dataformat.yaml.YAMLMapper;

/**
 * The caBundle as a merged bundle, on the real API server: a certificate with a new CA is served
 * only once that CA is in the bundle beside the old one, a generated certificate is renewed (on a
 * fake clock that starts in the past, so every certificate is valid in real time as the API server
 * judges it), a new certificate goes ahead when the old one expires first, two applications with
 * generated certificates (two replicas) keep each other's CA and are both called, and concurrent
 * injectors each keep theirs. Each webhook here matches only ConfigMaps labelled for it.
 */
@KubernetesTest
class WebhookCertificatesIT {

    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final String RUN = UUID.randomUUID().toString().substring(0, 8);
    private static final String LABEL = "certificates.operatorstarter.dev/it";
    private static final String GADGETS = "gadgets.webhooks.operatorstarter.dev";
    private static final Duration YEAR = Duration.ofDays(365);
    /** Renewal is due after two thirds of a year, about 243 days. */
    private static final Duration PAST_RENEWAL = Duration.ofDays(250);

    private static KubernetesClient admin;

    /** The clock of a test's server, a little over 300 days behind the real one: its certificates are valid now. */
    private final FakeTimeSource clock = startingMonthsAgo();
    private @Nullable NettyWebhookServer server;

    @BeforeAll
    static void connect(ClusterConnection connection) {
        admin = KubernetesClient.create(KubeconfigLoader.load(connection.kubeconfig(), null));
    }

    @AfterAll
    static void close() {
        admin.close();
    }

    @AfterEach
    void stopTheServer() {
        if (server != null) {
            server.stop();
        }
    }

    @Test
    void aSuppliedCertificateWithANewCaIsServedOnlyOnceItsCaIsInTheBundleBesideTheOldOne(ClusterConnection connection,
            TestNamespace namespace, @TempDir Path folder) throws Exception {
        ServingKey first = generated(Duration.ofDays(1));
        ServingKey second = generated(Duration.ofDays(2));
        Path files = folder.resolve("current");
        publish(folder, "first", first);
        String name = "certificates-files-" + RUN;
        try (ConfigurableApplicationContext application = WebhooksIT.start(connection,
                "operator.webhook.certificate.cert-file=" + files.resolve("tls.crt"),
                "operator.webhook.certificate.key-file=" + files.resolve("tls.key"),
                "operator.webhook.certificate.ca-file=" + files.resolve("ca.crt"),
                "operator.webhook.certificate.reload-interval=100ms",
                "operator.webhook.ca-injection.validating-webhook-configurations=" + name)) {
            WebhookServer server = application.getBean(WebhookServer.class);
            create(name, Map.of("files", server.port()));
            await().atMost(WAIT).until(() -> server.status().ready(Instant.now()));
            assertDenied(namespace, "files");

            // the object is gone when the files rotate, so the new CA cannot be injected: the old certificate stays
            delete(name);
            publish(folder, "second", second);
            // the status first says the new certificate waits for its CA, then why it cannot be injected
            await().atMost(WAIT).untilAsserted(() -> assertThat(server.status().certificateRotation()).isNotNull()
                    .contains("valid until " + second.notAfter())
                    .contains("ValidatingWebhookConfiguration " + name + " does not exist"));
            assertThat(served(first.caPem(), server.port())).isEqualTo(first.certificate());
            assertThat(server.status().ready(Instant.now())).as("still trusted where it was injected").isTrue();

            // re-applied without a bundle: the new CA goes in before the old one, then the new certificate is served
            create(name, Map.of("files", server.port()));
            await().atMost(WAIT).untilAsserted(() -> {
                assertThat(server.status().certificateNotAfter()).isEqualTo(second.notAfter());
                assertThat(server.status().certificateRotation()).isNull();
            });
            assertThat(bundles(name)).containsExactly(List.of(certificate(second.caPem()), certificate(first.caPem())));
            assertThat(served(second.caPem(), server.port())).isEqualTo(second.certificate());
            assertDenied(namespace, "files");
        } finally {
            delete(name);
        }
    }

    @Test
    void aGeneratedCertificateIsRenewedWhenAThirdOfItsValidityIsLeftAndTheOldCaLeavesTheBundleOnceExpired(
            TestNamespace namespace) throws Exception {
        String name = "certificates-renewal-" + RUN;
        try {
            NettyWebhookServer server = startTrusted(name, "renewal");
            assertDenied(namespace, "renewal");
            String first = server.caCertificatePem();

            clock.advance(PAST_RENEWAL);

            await().atMost(WAIT).until(() -> !first.equals(server.caCertificatePem()));
            String second = server.caCertificatePem();
            assertThat(bundles(name)).as("injected before it was served, beside the old CA")
                    .containsExactly(List.of(certificate(second), certificate(first)));
            assertThat(served(second, server.port()).getIssuerX500Principal())
                    .isEqualTo(certificate(second).getSubjectX500Principal());
            assertDenied(namespace, "renewal");

            clock.advance(Duration.ofDays(120)); // past the first CA's end, well before the second's renewal

            await().atMost(WAIT).until(() -> bundles(name).equals(List.of(List.of(certificate(second)))));
            assertThat(server.caCertificatePem()).isEqualTo(second);
            assertDenied(namespace, "renewal");
        } finally {
            delete(name);
        }
    }

    @Test
    void aNewCertificateIsServedAnywayWhenTheOldOneExpiresBeforeItsCaCouldBeInjectedAndTheHealthSaysSo(
            TestNamespace namespace) throws Exception {
        String name = "certificates-expiry-" + RUN;
        try {
            NettyWebhookServer server = startTrusted(name, "expiry");
            String first = server.caCertificatePem();
            delete(name);

            clock.advance(PAST_RENEWAL);
            await().atMost(WAIT).until(() -> server.status().certificateRotation() != null);
            assertThat(server.caCertificatePem()).as("kept while its successor's CA cannot be injected").isEqualTo(first);
            assertThat(served(first, server.port()).getIssuerX500Principal())
                    .isEqualTo(certificate(first).getSubjectX500Principal());

            clock.advance(Duration.ofDays(120)); // the certificate served expires
            await().atMost(WAIT).untilAsserted(() -> {
                assertThat(server.caCertificatePem()).isNotEqualTo(first);
                assertThat(server.status().certificateRotation()).isNotNull().contains("expired before the CA of its "
                        + "successor was in every caBundle: serving the new one");
            });
            WebhookServer.Status status = server.status();
            assertThat(status.ready(Instant.now())).isFalse();
            assertThat(status.caInjectionPending()).containsExactly("ValidatingWebhookConfiguration " + name
                    + " does not exist (yet)");
            Map<String, Object> details = new WebhookServerHealthIndicator(server, List::of, TimeSource.system()).health()
                    .getDetails();
            assertThat(details).containsEntry("certificateRotation", status.certificateRotation());

            create(name, Map.of("expiry", server.port()));
            await().atMost(WAIT).untilAsserted(() -> {
                assertThat(server.status().ready(Instant.now())).isTrue();
                assertThat(server.status().certificateRotation()).isNull();
            });
            assertThat(bundles(name)).as("the expired CA is not kept")
                    .containsExactly(List.of(certificate(server.caCertificatePem())));
            assertDenied(namespace, "expiry");
        } finally {
            delete(name);
        }
    }

    /**
     * Two replicas in generated mode: each generates its own CA and injects it into the same
     * webhook configuration and CRD, keeping the other's. The configuration has a webhook per
     * replica, so the API server must trust both; the CRD converts through the first, then, once
     * it is pointed at the second and the first has stopped (a rolling update), through the second.
     */
    @Test
    void twoReplicasWithGeneratedCertificatesKeepEachOthersCaAndTheApiServerCallsBoth(ClusterConnection connection,
            TestNamespace namespace) throws Exception {
        String name = "certificates-replicas-" + RUN;
        ResourceClient<CustomResourceDefinition> crds = admin.apiextensionsV1().customResourceDefinitions();
        await().atMost(WAIT).until(() -> crds.find(GADGETS).isEmpty()); // another class's may still be going
        String[] injection = {"operator.webhook.ca-injection.validating-webhook-configurations=" + name,
                "operator.webhook.ca-injection.custom-resource-definitions=" + GADGETS};
        ConfigurableApplicationContext first = WebhooksIT.start(connection, injection);
        try (ConfigurableApplicationContext second = WebhooksIT.start(connection, injection)) {
            WebhookServer one = first.getBean(WebhookServer.class);
            WebhookServer two = second.getBean(WebhookServer.class);
            create(name, Map.of("first", one.port(), "second", two.port()));
            crds.create(YAMLMapper.builder().build().readValue(WebhooksIT.resource("/webhooks/gadgets-crd.yaml",
                    one.port()), CustomResourceDefinition.class));
            await().atMost(WAIT).until(() -> WebhooksIT.established(admin, GADGETS));

            await().atMost(WAIT).until(() -> one.status().ready(Instant.now()) && two.status().ready(Instant.now()));
            List<X509Certificate> both = List.of(certificate(one.caCertificatePem()), certificate(two.caCertificatePem()));
            assertThat(bundles(name)).hasSize(2).allSatisfy(bundle -> assertThat(bundle)
                    .containsExactlyInAnyOrderElementsOf(both));
            assertThat(CaBundleTest.certificates(decode(crds.get(GADGETS).getSpec().getConversion().getWebhook()
                    .getClientConfig().getCaBundle()))).containsExactlyInAnyOrderElementsOf(both);
            assertDenied(namespace, "first");
            assertDenied(namespace, "second");

            ResourceClient<GadgetV1alpha1> old = admin.resources(GadgetV1alpha1.class).inNamespace(namespace.name());
            ResourceClient<GadgetV1> current = admin.resources(GadgetV1.class).inNamespace(namespace.name());
            await().atMost(WAIT).ignoreExceptions().until(() -> old.create(GadgetV1alpha1.coloured("by-first", "red"))
                    != null);
            assertThat(current.get("by-first").getSpec().paint()).isEqualTo(new GadgetV1.Paint("red", "matte"));
            RetryOnConflict.run(() -> {
                CustomResourceDefinition crd = crds.get(GADGETS);
                crd.getSpec().getConversion().getWebhook().getClientConfig()
                        .setUrl("https://127.0.0.1:" + two.port() + "/convert-gadgets");
                return crds.update(crd);
            });
            first.close();
            await().atMost(WAIT).ignoreExceptions().until(() -> old.create(GadgetV1alpha1.coloured("by-second", "blue"))
                    != null);
            assertThat(current.get("by-second").getSpec().paint()).isEqualTo(new GadgetV1.Paint("blue", "matte"));
            assertDenied(namespace, "second");
        } finally {
            first.close();
            delete(name);
            crds.find(GADGETS).ifPresent(found -> crds.delete(GADGETS));
            await().atMost(WAIT).until(() -> crds.find(GADGETS).isEmpty());
        }
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

    private static FakeTimeSource startingMonthsAgo() {
        FakeTimeSource clock = new FakeTimeSource();
        clock.setWall(Instant.now().minus(Duration.ofDays(300)));
        return clock;
    }

    /** A webhook server for ConfigMaps with a generated certificate and injection into {@code configuration}, on {@code clock}. */
    private static NettyWebhookServer server(FakeTimeSource clock, String configuration) {
        WebhookProperties properties = properties(Map.of("certificate.reload-interval", "100ms",
                "ca-injection.validating-webhook-configurations[0]", configuration,
                "ca-injection.retry-period", "200ms", "ca-injection.check-period", "500ms"));
        return new NettyWebhookServer(properties,
                Map.of("/validate-configmaps", AdmissionEndpoint.validating(ConfigMap.class, new ConfigMapGuard())),
                () -> new GeneratedCertificate(List.of("localhost"), List.of("127.0.0.1"), YEAR, clock),
                new CaBundleInjector(admin, properties.caInjection(), clock), WebhookMetrics.NONE, clock);
    }

    /**
     * Starts a server on {@link #clock} injecting into {@code configuration}, creates that with a
     * webhook pointing at it, and waits until it is ready; {@link #stopTheServer} stops it.
     */
    private NettyWebhookServer startTrusted(String configuration, String webhook) {
        NettyWebhookServer started = server(clock, configuration);
        server = started;
        started.start();
        create(configuration, Map.of(webhook, started.port()));
        await().atMost(WAIT).until(() -> started.status().ready(Instant.now()));
        return started;
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

    /**
     * Writes the certificate, key and CA into a folder of their own and points {@code current} at
     * it in one rename, as the kubelet updates a mounted Secret: a reader never sees a mix.
     */
    private static void publish(Path folder, String version, ServingKey key) throws Exception {
        Path files = Files.createDirectory(folder.resolve(version));
        WebhookAutoConfigurationTest.write(key, files.resolve("tls.crt"), files.resolve("tls.key"));
        Files.writeString(files.resolve("ca.crt"), key.caPem());
        Path link = Files.createSymbolicLink(folder.resolve("next"), files);
        Files.move(link, folder.resolve("current"), StandardCopyOption.ATOMIC_MOVE);
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

    /** The certificate a handshake trusting only {@code caPem} is served. */
    private static X509Certificate served(String caPem, int port) throws Exception {
        WebhookClient client = new WebhookClient(caPem, port);
        client.get("/validate-configmaps");
        return client.served();
    }

    /** The API server calls the webhook labelled {@code webhook}, which refuses a ConfigMap with a forbidden key. */
    private static void assertDenied(TestNamespace namespace, String webhook) {
        ResourceClient<ConfigMap> configMaps = admin.coreV1().configMaps().inNamespace(namespace.name());
        ApiException denied = await().atMost(WAIT).until(() -> catchThrowableOfType(ApiException.class,
                () -> configMaps.create(WebhooksIT.configMap("refused-" + webhook, Map.of(LABEL, webhook + "-" + RUN),
                        "forbidden"))), WebhooksIT::deniedByUs);
        assertThat(denied.getMessage()).contains("admission webhook \"" + webhook
                + ".certificates.operatorstarter.dev\" denied the request: the key 'forbidden' is forbidden");
    }
}
