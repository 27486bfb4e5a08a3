package dev.operatorstarter.autoconfigure.webhook;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.operatorstarter.autoconfigure.Widget;
import dev.operatorstarter.autoconfigure.wiring.OperatorClientAutoConfiguration;
import dev.operatorstarter.autoconfigure.wiring.OperatorMetricsAutoConfiguration;
import dev.operatorstarter.time.TimeSource;
import dev.operatorstarter.webhook.AdmissionVerdict;
import dev.operatorstarter.webhook.ConversionEndpoint;
import dev.operatorstarter.webhook.Converter;
import dev.operatorstarter.webhook.MutatingHandler;
import dev.operatorstarter.webhook.Mutation;
import dev.operatorstarter.webhook.ValidatingHandler;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

@ExtendWith(OutputCaptureExtension.class)
class WebhookAutoConfigurationTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    @TempDir
    Path folder;

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(WebhookAutoConfiguration.class))
            .withPropertyValues("operator.webhook.port=0", "operator.webhook.address=127.0.0.1");

    @Configuration(proxyBeanMethods = false)
    @Import({WidgetValidator.class, WidgetDefaulter.class, GadgetConverter.class})
    static class Handlers {

        /** A handler from a @Bean method: its resource comes from the method's generic return type. */
        @Bean
        @AdmissionWebhook(path = "/default-configmaps")
        MutatingHandler<ConfigMap> configMapDefaulter() {
            return admission -> {
                admission.object().getData().putIfAbsent("mode", "default");
                return Mutation.allow(admission.object());
            };
        }
    }

    @Test
    void nothingIsServedUnlessEnabledAndStartUpSaysWhichBeansAreNotServed(CapturedOutput output) {
        runner.withConfiguration(AutoConfigurations.of(WebhooksNotServedAutoConfiguration.class))
                .withUserConfiguration(Handlers.class).run(context -> {
                    assertThat(context).hasNotFailed().doesNotHaveBean(WebhookServer.class)
                            .doesNotHaveBean(WebhookProperties.class);
                    assertThat(output).contains("webhook bean(s) are not served, as operator.webhook.enabled is not true: ")
                            .contains("configMapDefaulter").contains("Set operator.webhook.enabled=true");
                });
    }

    @Test
    void noWarningWithoutWebhookBeansOrOnceEnabled(CapturedOutput output) {
        runner.withConfiguration(AutoConfigurations.of(WebhooksNotServedAutoConfiguration.class))
                .run(context -> assertThat(context).hasNotFailed());
        runner.withConfiguration(AutoConfigurations.of(WebhooksNotServedAutoConfiguration.class))
                .withUserConfiguration(Handlers.class).withPropertyValues("operator.webhook.enabled=true")
                .run(context -> assertThat(context).hasNotFailed().hasSingleBean(WebhookServer.class)
                        .doesNotHaveBean(WebhooksNotServedAutoConfiguration.class));
        assertThat(output).doesNotContain("are not served");
    }

    @Test
    void nothingIsServedWhenTheOperatorIsDisabled() {
        runner.withUserConfiguration(Handlers.class)
                .withPropertyValues("operator.webhook.enabled=true", "operator.enabled=false")
                .run(context -> assertThat(context).hasNotFailed().doesNotHaveBean(WebhookServer.class));
    }

    @Test
    void everyAnnotatedBeanIsServedAtItsPathOverHttpsWithAGeneratedCertificate() {
        runner.withUserConfiguration(Handlers.class).withPropertyValues("operator.webhook.enabled=true").run(context -> {
            assertThat(context).hasNotFailed().hasSingleBean(WebhookServer.class);
            WebhookServer server = context.getBean(WebhookServer.class);
            assertThat(server.paths()).containsExactly("/convert-gadgets", "/default-configmaps", "/default-widgets",
                    "/validate-widgets");
            assertThat(server.port()).isPositive();
            WebhookClient client = new WebhookClient(server.caCertificatePem(), server.port());

            JsonNode denied = answer(client, "/validate-widgets", widgetReview("{\"colour\":\"invisible\"}"));
            JsonNode patched = answer(client, "/default-configmaps", """
                    {"apiVersion":"admission.k8s.io/v1","kind":"AdmissionReview","request":{"uid":"u2",
                     "kind":{"group":"","version":"v1","kind":"ConfigMap"},"operation":"CREATE",
                     "userInfo":{"username":"alice"},
                     "object":{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"c"},"data":{"a":"b"}}}}""");

            assertThat(denied.path("allowed").asBoolean()).isFalse();
            assertThat(denied.path("status").path("message").asString())
                    .isEqualTo("a widget cannot be invisible (CREATE by alice)");
            assertThat(new String(Base64.getDecoder().decode(patched.path("patch").asString()), StandardCharsets.UTF_8))
                    .isEqualTo("[{\"op\":\"add\",\"path\":\"/data/mode\",\"value\":\"default\"}]");
            assertThat(client.served().getSubjectAlternativeNames().stream().map(name -> String.valueOf(name.get(1))))
                    .contains("localhost", "127.0.0.1");
        });
    }

    @Test
    void otherRequestsGetPlainAnswersNotBrokenOnes() {
        runner.withUserConfiguration(Handlers.class)
                .withPropertyValues("operator.webhook.enabled=true", "operator.webhook.max-request-size=2KB")
                .run(context -> {
                    WebhookServer server = context.getBean(WebhookServer.class);
                    WebhookClient client = new WebhookClient(server.caCertificatePem(), server.port());

                    HttpResponse<String> unknown = client.post("/nowhere", "application/json", "{}");
                    HttpResponse<String> get = client.get("/validate-widgets");
                    HttpResponse<String> text = client.post("/validate-widgets", "text/plain", "hello");
                    HttpResponse<String> large = client.post("/validate-widgets", "application/json",
                            "{\"padding\":\"" + "x".repeat(4096) + "\"}");
                    HttpResponse<String> garbage = client.post("/validate-widgets", "application/json", "{not json");
                    // a megabyte over the limit is read and dropped before the 413, so no reset destroys the answer
                    HttpResponse<String> huge = client.post("/validate-widgets", "application/json",
                            "{\"padding\":\"" + "x".repeat(1_000_000) + "\"}");

                    assertThat(unknown.statusCode()).isEqualTo(404);
                    assertThat(unknown.body()).isEqualTo("no webhook is served at /nowhere\n");
                    assertThat(get.statusCode()).isEqualTo(405);
                    assertThat(get.headers().firstValue("Allow")).hasValue("POST");
                    assertThat(text.statusCode()).isEqualTo(415);
                    assertThat(large.statusCode()).isEqualTo(413);
                    assertThat(huge.statusCode()).isEqualTo(413);
                    assertThat(huge.body()).startsWith("the review is larger than operator.webhook.max-request-size");
                    assertThat(garbage.statusCode()).isEqualTo(200);
                    assertThat(JSON.readTree(garbage.body()).path("response").path("status").path("message").asString())
                            .startsWith("the request body is not JSON");
                });
    }

    @Test
    void requestsAreMeasuredWithControllerRuntimesMetricNames() {
        runner.withUserConfiguration(Handlers.class)
                .withBean(PrometheusMeterRegistry.class, () -> new PrometheusMeterRegistry(PrometheusConfig.DEFAULT))
                .withPropertyValues("operator.webhook.enabled=true").run(context -> {
                    WebhookServer server = context.getBean(WebhookServer.class);
                    WebhookClient client = new WebhookClient(server.caCertificatePem(), server.port());
                    answer(client, "/validate-widgets", widgetReview("{\"colour\":\"red\"}"));
                    client.post("/validate-widgets", "text/plain", "not measured as a review, but as a request");

                    String scrape = context.getBean(PrometheusMeterRegistry.class).scrape();

                    assertThat(scrape).contains(
                            "controller_runtime_webhook_requests_total{code=\"200\",webhook=\"/validate-widgets\"} 1",
                            "controller_runtime_webhook_requests_total{code=\"200\",webhook=\"/convert-gadgets\"} 0",
                            "controller_runtime_webhook_latency_seconds_bucket{webhook=\"/validate-widgets\",le=\"0.005\"}",
                            "controller_runtime_webhook_latency_seconds_count{webhook=\"/validate-widgets\"} 1",
                            "controller_runtime_webhook_requests_in_flight{webhook=\"/validate-widgets\"} 0")
                            .doesNotContain("code=\"415\"");
                });
    }

    @Test
    void theHealthIndicatorIsUpOnceListeningAndLeftOutWithoutHealthSupport() {
        runner.withUserConfiguration(Handlers.class).withPropertyValues("operator.webhook.enabled=true").run(context -> {
            Health health = context.getBean("webhooksHealthIndicator", HealthIndicator.class).health();
            assertThat(health.getStatus()).isEqualTo(Status.UP);
            assertThat(health.getDetails()).containsEntry("listening", true)
                    .containsEntry("port", context.getBean(WebhookServer.class).port())
                    .containsEntry("certificate", "generated for localhost, 127.0.0.1").containsKey("certificateNotAfter");
        });
        runner.withUserConfiguration(Handlers.class).withPropertyValues("operator.webhook.enabled=true")
                .withClassLoader(new FilteredClassLoader(HealthIndicator.class))
                .run(context -> assertThat(context).hasNotFailed().doesNotHaveBean("webhooksHealthIndicator"));
    }

    @Test
    void aPendingCaInjectionKeepsTheHealthDownAndSaysWhy() throws Exception {
        new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(OperatorMetricsAutoConfiguration.class,
                        OperatorClientAutoConfiguration.class, WebhookAutoConfiguration.class))
                .withPropertyValues("operator.webhook.enabled=true", "operator.webhook.port=0",
                        "operator.webhook.address=127.0.0.1", "operator.client.kubeconfig=" + unreachableCluster(folder),
                        "operator.client.max-retries=0", "operator.webhook.ca-injection.retry-period=100ms",
                        "operator.webhook.ca-injection.validating-webhook-configurations=widgets")
                .run(context -> {
                    HealthIndicator indicator = context.getBean("webhooksHealthIndicator", HealthIndicator.class);
                    Health health = await().atMost(Duration.ofSeconds(20)).until(indicator::health,
                            current -> current.getDetails().get("caInjectionPending") instanceof List<?> pending
                                    && pending.get(0).toString().startsWith("cannot set the caBundle"));
                    assertThat(health.getStatus()).isEqualTo(Status.DOWN);
                    assertThat((List<?>) health.getDetails().get("caInjectionPending")).singleElement().asString()
                            .startsWith("cannot set the caBundle of ValidatingWebhookConfiguration widgets: ");
                });
    }

    @Test
    void aUserDefinedServerWins() {
        WebhookServer own = new WebhookServer() {
            @Override
            public int port() {
                return 1;
            }

            @Override
            public Set<String> paths() {
                return Set.of();
            }

            @Override
            public String caCertificatePem() {
                return null;
            }

            @Override
            public Status status() {
                return new Status(true, 1, List.of(), "mine", null, null, null, List.of());
            }
        };
        runner.withUserConfiguration(Handlers.class).withPropertyValues("operator.webhook.enabled=true")
                .withBean(WebhookServer.class, () -> own)
                .run(context -> assertThat(context).hasNotFailed().getBean(WebhookServer.class).isSameAs(own));
    }

    @Test
    void beansThatCannotBeServedFailStartUpNamingTheBeanAndTheFix() {
        assertStartUpFails(Both.class, "@AdmissionWebhook bean 'both' is both a ValidatingHandler and a "
                + "MutatingHandler: the API server calls them in different phases, so make them two beans with two paths");
        assertStartUpFails(NotAHandler.class, "@AdmissionWebhook bean 'notAHandler' (java.lang.String) is neither a "
                + "ValidatingHandler nor a MutatingHandler: implement ValidatingHandler<YourResource> or "
                + "MutatingHandler<YourResource>");
        assertStartUpFails(RawHandler.class, "webhook bean 'raw' does not say which resource it handles");
        assertStartUpFails(SamePath.class, "beans '" + WidgetValidator.class.getName() + "' and 'other' both serve /validate-widgets: give each "
                + "admission webhook a path of its own");
        assertStartUpFails(BadPath.class, "@AdmissionWebhook on bean 'relative' has the path 'validate': a path starts "
                + "with '/' and has no query, fragment or spaces");
        assertStartUpFails(TwoHubs.class, "the @ConversionWebhook beans at /convert-gadgets name two hubs");
        assertStartUpFails(TwoConverters.class, "the @ConversionWebhook beans at /convert-gadgets ([one, two]) do not "
                + "fit together: two converters join webhooks.operatorstarter.dev/v1alpha1 and "
                + "webhooks.operatorstarter.dev/v1; keep one");
    }

    @Test
    void aReadyConversionEndpointBeanIsServedAsItIs() {
        runner.withUserConfiguration(ReadyEndpoint.class).withPropertyValues("operator.webhook.enabled=true")
                .run(context -> assertThat(context.getBean(WebhookServer.class).paths()).containsExactly("/convert"));
    }

    @Test
    void propertiesThatDoNotFitFailStartUpNamingTheProperty() throws Exception {
        runner.withPropertyValues("operator.webhook.enabled=true", "operator.webhook.port=70000").run(context ->
                assertThat(context).hasFailed().getFailure().rootCause()
                        .hasMessage("operator.webhook.port must be 0 to 65535, not 70000"));
        runner.withPropertyValues("operator.webhook.enabled=true", "operator.webhook.certificate.cert-file=/tls.crt")
                .run(context -> assertThat(context).hasFailed().getFailure().rootCause().hasMessage(
                        "operator.webhook.certificate.cert-file and key-file go together: cert-file is set, the other is not"));
        runner.withPropertyValues("operator.webhook.enabled=true", "operator.webhook.certificate.cert-file=/tls.crt",
                "operator.webhook.certificate.key-file=/tls.key",
                "operator.webhook.ca-injection.custom-resource-definitions=gadgets.webhooks.operatorstarter.dev")
                .run(context -> assertThat(context).hasFailed().getFailure().rootCause().hasMessageContaining(
                        "but the certificate is supplied without its CA: set operator.webhook.certificate.ca-file"));
        runner.withPropertyValues("operator.webhook.enabled=true",
                "operator.webhook.ca-injection.custom-resource-definitions=gadgets.webhooks.operatorstarter.dev")
                .run(context -> assertThat(context).hasFailed().getFailure().rootCause().hasMessageStartingWith(
                        "operator.webhook.ca-injection needs a KubernetesClient bean"));
        runner.withPropertyValues("operator.webhook.enabled=true", "operator.webhook.certificate.cert-file=" + folder
                + "/missing.crt", "operator.webhook.certificate.key-file=" + folder + "/missing.key")
                .run(context -> assertThat(context).hasFailed().getFailure().hasStackTraceContaining(
                        "cannot read operator.webhook.certificate.cert-file " + folder + "/missing.crt"));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "operator.webhook.idle-timeout=0s | operator.webhook.idle-timeout must be positive, not PT0S",
        "operator.webhook.header-read-timeout=-1s | operator.webhook.header-read-timeout must be positive, not PT-1S",
        "operator.webhook.body-read-timeout=0s | operator.webhook.body-read-timeout must be positive, not PT0S",
        "operator.webhook.max-header-size=100B | operator.webhook.max-header-size must be from 1KB to 2GB, not 100B",
        "operator.webhook.max-concurrent-requests=0 | operator.webhook.max-concurrent-requests must be at least 1, not 0",
        "operator.webhook.max-connections=0 | operator.webhook.max-connections must be at least 1, not 0",
        "operator.webhook.tls-min-version=1.1 | operator.webhook.tls-min-version must be 1.2 or 1.3, not '1.1'",
    })
    void limitsAndTlsSettingsThatDoNotFitFailStartUpNamingTheProperty(String property, String message) {
        runner.withPropertyValues("operator.webhook.enabled=true", property).run(context ->
                assertThat(context).hasFailed().getFailure().rootCause().hasMessage(message));
    }

    @Test
    void theLimitsDefaultToControllerRuntimesFiguresAndTlsToVersion12WithForwardSecretAeadSuites() {
        runner.withPropertyValues("operator.webhook.enabled=true").run(context -> {
            WebhookProperties properties = context.getBean(WebhookProperties.class);
            assertThat(properties.idleTimeout()).isEqualTo(Duration.ofSeconds(90));
            assertThat(properties.headerReadTimeout()).isEqualTo(Duration.ofSeconds(32));
            assertThat(properties.bodyReadTimeout()).isEqualTo(Duration.ofSeconds(30));
            assertThat(properties.maxHeaderSize().toBytes()).isEqualTo(1024 * 1024);
            assertThat(properties.maxConnections()).isGreaterThan(500);
            assertThat(properties.clientCa()).isNull();
            assertThat(properties.tlsProtocols()).containsExactlyInAnyOrder("TLSv1.2", "TLSv1.3");
            assertThat(properties.tlsCipherSuites()).allMatch(suite -> suite.startsWith("TLS_ECDHE_")
                    || !suite.contains("_WITH_")).allMatch(suite -> suite.contains("GCM") || suite.contains("CHACHA20"));
        });
    }

    @Test
    void generatedCertificatesNeedBouncyCastleAndSaySo() {
        runner.withPropertyValues("operator.webhook.enabled=true")
                .withClassLoader(new FilteredClassLoader("org.bouncycastle"))
                .run(context -> assertThat(context).hasFailed().getFailure().rootCause().hasMessageContaining(
                        "which needs BouncyCastle: add the dependency org.bouncycastle:bcpkix-jdk18on, or supply "
                                + "cert-file and key-file"));
    }

    @Test
    void suppliedCertificateFilesAreServedAndARotationIsPickedUpWithoutARestart() throws Exception {
        ServingKey first = new GeneratedCertificate(List.of("localhost"), List.of("127.0.0.1"), Duration.ofDays(1),
                TimeSource.system()).load();
        ServingKey second = new GeneratedCertificate(List.of("localhost"), List.of("127.0.0.1"), Duration.ofDays(2),
                TimeSource.system()).load();
        Path cert = folder.resolve("tls.crt");
        Path key = folder.resolve("tls.key");
        write(first, cert, key);
        runner.withUserConfiguration(Handlers.class).withPropertyValues("operator.webhook.enabled=true",
                "operator.webhook.certificate.cert-file=" + cert, "operator.webhook.certificate.key-file=" + key,
                "operator.webhook.certificate.reload-interval=100ms").run(context -> {
                    WebhookServer server = context.getBean(WebhookServer.class);
                    WebhookClient before = new WebhookClient(first.caPem(), server.port());
                    answer(before, "/validate-widgets", widgetReview("{}"));
                    assertThat(before.served()).isEqualTo(first.certificate());
                    assertThat(server.caCertificatePem()).as("no ca-file: no CA known").isNull();

                    // half a rotation: the new certificate with the old key is refused, the old pair still served
                    // the files are written in place: a reload may read one half-written, and say so first
                    Files.writeString(cert, ServingKey.pem(second.certificate()));
                    await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(server.status()
                            .certificateProblem()).isNotNull().contains("is not the key of the certificate in"));
                    assertThat(server.status().certificateNotAfter()).isEqualTo(first.notAfter());

                    write(second, cert, key);
                    await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
                        assertThat(server.status().certificateNotAfter()).isEqualTo(second.notAfter());
                        assertThat(server.status().certificateProblem()).isNull();
                    });
                    WebhookClient after = new WebhookClient(second.caPem(), server.port());
                    answer(after, "/validate-widgets", widgetReview("{}"));
                    assertThat(after.served()).isEqualTo(second.certificate());
                });
    }

    static void write(ServingKey key, Path cert, Path keyFile) throws Exception {
        Files.writeString(keyFile, "-----BEGIN PRIVATE KEY-----\n"
                + Base64.getMimeEncoder(64, new byte[] {'\n'}).encodeToString(key.key().getEncoded())
                + "\n-----END PRIVATE KEY-----\n");
        Files.writeString(cert, ServingKey.pem(key.certificate()));
    }

    private void assertStartUpFails(Class<?> configuration, String message) {
        runner.withUserConfiguration(configuration).withPropertyValues("operator.webhook.enabled=true")
                .run(context -> {
                    assertThat(context).hasFailed();
                    Throwable failure = context.getStartupFailure();
                    while (failure != null && !(failure instanceof InvalidWebhookException)) {
                        failure = failure.getCause();
                    }
                    assertThat(failure).as("an InvalidWebhookException in %s", context.getStartupFailure())
                            .isNotNull().hasMessageStartingWith(message);
                });
    }

    /** A kubeconfig whose server refuses connections. */
    static Path unreachableCluster(Path folder) throws Exception {
        return Files.writeString(folder.resolve("kubeconfig"), """
                apiVersion: v1
                kind: Config
                current-context: local
                clusters:
                  - name: local
                    cluster: {server: "https://127.0.0.1:1", insecure-skip-tls-verify: true}
                users:
                  - name: robot
                    user: {token: not-a-real-token}
                contexts:
                  - name: local
                    context: {cluster: local, user: robot, namespace: default}
                """);
    }

    static String widgetReview(String spec) {
        return """
                {"apiVersion":"admission.k8s.io/v1","kind":"AdmissionReview","request":{"uid":"u1",
                 "kind":{"group":"starter.operatorstarter.dev","version":"v1","kind":"Widget"},
                 "resource":{"group":"starter.operatorstarter.dev","version":"v1","resource":"widgets"},
                 "operation":"CREATE","userInfo":{"username":"alice"},"namespace":"ns","name":"w",
                 "object":{"apiVersion":"starter.operatorstarter.dev/v1","kind":"Widget",
                           "metadata":{"name":"w","namespace":"ns"},"spec":%s}}}""".formatted(spec);
    }

    private static JsonNode answer(WebhookClient client, String path, String review) throws Exception {
        HttpResponse<String> response = client.post(path, "application/json", review);
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        assertThat(response.headers().firstValue("Content-Type")).hasValue("application/json");
        return JSON.readTree(response.body()).path("response");
    }

    @Configuration(proxyBeanMethods = false)
    static class Both {
        @Bean
        @AdmissionWebhook(path = "/both")
        BothHandlers both() {
            return new BothHandlers();
        }
    }

    static class BothHandlers implements ValidatingHandler<Widget>, MutatingHandler<Widget> {
        @Override
        public AdmissionVerdict validate(dev.operatorstarter.webhook.Admission<Widget> admission) {
            return AdmissionVerdict.allow();
        }

        @Override
        public Mutation<Widget> mutate(dev.operatorstarter.webhook.Admission<Widget> admission) {
            return Mutation.allow(admission.subject());
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class NotAHandler {
        @Bean
        @AdmissionWebhook(path = "/string")
        String notAHandler() {
            return "hello";
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class RawHandler {
        @Bean
        @AdmissionWebhook(path = "/raw")
        @SuppressWarnings("rawtypes")
        ValidatingHandler raw() {
            return admission -> AdmissionVerdict.allow();
        }
    }

    @Configuration(proxyBeanMethods = false)
    @Import(WidgetValidator.class)
    static class SamePath {
        @Bean
        @AdmissionWebhook(path = "/validate-widgets")
        ValidatingHandler<Widget> other() {
            return admission -> AdmissionVerdict.allow();
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class BadPath {
        @Bean
        @AdmissionWebhook(path = "validate")
        ValidatingHandler<Widget> relative() {
            return admission -> AdmissionVerdict.allow();
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class TwoHubs {
        @Bean
        @ConversionWebhook(path = "/convert-gadgets", hub = GadgetV1.class)
        Converter<GadgetV1alpha1, GadgetV1> one() {
            return Converter.of(alpha -> new GadgetV1(), v1 -> new GadgetV1alpha1());
        }

        @Bean
        @ConversionWebhook(path = "/convert-gadgets", hub = GadgetV1alpha1.class)
        Converter<GadgetV1alpha1, GadgetV1> two() {
            return Converter.of(alpha -> new GadgetV1(), v1 -> new GadgetV1alpha1());
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class TwoConverters {
        @Bean
        @ConversionWebhook(path = "/convert-gadgets")
        Converter<GadgetV1alpha1, GadgetV1> one() {
            return Converter.of(alpha -> new GadgetV1(), v1 -> new GadgetV1alpha1());
        }

        @Bean
        @ConversionWebhook(path = "/convert-gadgets")
        Converter<GadgetV1alpha1, GadgetV1> two() {
            return Converter.of(alpha -> new GadgetV1(), v1 -> new GadgetV1alpha1());
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class ReadyEndpoint {
        @Bean
        @ConversionWebhook(path = "/convert")
        ConversionEndpoint gadgets() {
            return ConversionEndpoint.builder().converter(GadgetV1alpha1.class, GadgetV1.class, new GadgetConverter())
                    .build();
        }
    }
}
