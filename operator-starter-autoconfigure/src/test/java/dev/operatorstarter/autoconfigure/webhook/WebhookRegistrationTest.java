package dev.operatorstarter.autoconfigure.webhook;

import static dev.operatorstarter.webhook.Admission.Operation.CREATE;
import static dev.operatorstarter.webhook.Admission.Operation.DELETE;
import static dev.operatorstarter.webhook.Admission.Operation.UPDATE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;
import static org.awaitility.Awaitility.await;

import dev.operatorstarter.autoconfigure.Widget;
import dev.operatorstarter.autoconfigure.webhook.WebhookBeans.AdmissionTarget;
import dev.operatorstarter.autoconfigure.webhook.WebhookBeans.ConversionTarget;
import dev.operatorstarter.autoconfigure.wiring.OperatorClientAutoConfiguration;
import dev.operatorstarter.autoconfigure.wiring.OperatorMetricsAutoConfiguration;
import dev.operatorstarter.webhook.AdmissionVerdict;
import dev.operatorstarter.webhook.ValidatingHandler;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * {@code operator.webhook.register.*} wired by {@link WebhookAutoConfiguration}; the registration
 * itself against the real API server is {@link WebhookRegistrationIT}.
 */
@ExtendWith(OutputCaptureExtension.class)
class WebhookRegistrationTest {

    @TempDir
    Path folder;

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(OperatorMetricsAutoConfiguration.class,
                    OperatorClientAutoConfiguration.class, WebhookAutoConfiguration.class))
            .withUserConfiguration(WidgetValidator.class)
            .withPropertyValues("operator.webhook.enabled=true", "operator.webhook.port=0",
                    "operator.webhook.address=127.0.0.1", "operator.client.max-retries=0");

    @Test
    void nothingIsRegisteredUnlessAskedFor() throws Exception {
        runner.withPropertyValues(unreachableKubeconfig()).run(context -> {
            assertThat(context).hasNotFailed().doesNotHaveBean(WebhookRegistration.class);
            assertThat(context.getBean("webhooksHealthIndicator", HealthIndicator.class).health().getDetails())
                    .doesNotContainKey("registrationPending");
        });
    }

    @Test
    void aRegistrationThatCannotReachTheApiServerKeepsTheHealthDownSaysWhyAndDoesNotFailStartUp() throws Exception {
        runner.withPropertyValues(unreachableKubeconfig(),
                "operator.webhook.register.enabled=true", "operator.webhook.register.api-deadline=2s",
                "operator.webhook.register.retry-period=100ms", "spring.application.name=My Widgets")
                .run(context -> {
                    assertThat(context).hasNotFailed().hasSingleBean(WebhookRegistration.class);
                    Health health = context.getBean("webhooksHealthIndicator", HealthIndicator.class).health();

                    assertThat(health.getStatus()).isEqualTo(Status.DOWN);
                    assertThat((List<?>) health.getDetails().get("registrationPending")).first().asString()
                            .as("named after spring.application.name, as a DNS name")
                            .startsWith("cannot write ValidatingWebhookConfiguration my-widgets: ");
                    // retried: still said after a few more attempts
                    await().during(Duration.ofMillis(300)).atMost(Duration.ofSeconds(5)).until(() -> !context
                            .getBean(WebhookRegistration.class).pending().isEmpty());
                });
    }

    @Test
    void theConfigurationsNameIsTheRegisterNameWhenSet() throws Exception {
        runner.withPropertyValues(unreachableKubeconfig(),
                "operator.webhook.register.enabled=true", "operator.webhook.register.name=local-widgets")
                .run(context -> assertThat(context.getBean(WebhookRegistration.class).pending()).first()
                        .asString().startsWith("cannot write ValidatingWebhookConfiguration local-widgets: "));
    }

    @Test
    void aHandlerWhoseClassNamesNoResourceIsNamedInAWarningAndTheOthersAreStillRegistered(CapturedOutput output)
            throws Exception {
        runner.withUserConfiguration(AnythingValidator.class).withPropertyValues(unreachableKubeconfig(),
                "operator.webhook.register.enabled=true").run(context -> {
                    assertThat(context).hasNotFailed();
                    assertThat(output).contains("Cannot register the @AdmissionWebhook bean 'anythingValidator' at "
                            + "/validate-anything with the API server: its class "
                            + "io.fabric8.kubernetes.api.model.GenericKubernetesResource names no resource");
                    assertThat(context.getBean(WebhookRegistration.class).pending()).first().asString()
                            .startsWith("cannot write ValidatingWebhookConfiguration ");
                });
    }

    @Configuration(proxyBeanMethods = false)
    static class AnythingValidator {

        @Bean
        @AdmissionWebhook(path = "/validate-anything")
        ValidatingHandler<GenericKubernetesResource> anythingValidator() {
            return admission -> AdmissionVerdict.allow();
        }
    }

    @Test
    void whatIsRegisteredIsEveryHandlerWithItsResourceAndOperationsAndEveryConversionPathWithItsClasses() {
        new ApplicationContextRunner()
                .withUserConfiguration(WebhookAutoConfigurationTest.Handlers.class, DeletionGuard.class,
                        WebhookAutoConfigurationTest.ReadyEndpoint.class)
                .run(context -> {
                    ConfigurableListableBeanFactory beans = context
                            .getSourceApplicationContext(ConfigurableApplicationContext.class).getBeanFactory();

                    WebhookBeans.Targets targets = WebhookBeans.targets(beans, WebhookBeans.endpoints(beans));

                    assertThat(targets.admission()).extracting(AdmissionTarget::path, AdmissionTarget::type,
                            AdmissionTarget::mutating, AdmissionTarget::operations).containsExactlyInAnyOrder(
                                    tuple("/validate-widgets", Widget.class, false, List.of(CREATE, UPDATE)),
                                    tuple("/default-widgets", Widget.class, true, List.of(CREATE, UPDATE)),
                                    tuple("/default-configmaps", ConfigMap.class, true, List.of(CREATE, UPDATE)),
                                    tuple("/guard-deletes", ConfigMap.class, false, List.of(DELETE)));
                    assertThat(targets.conversion()).extracting(ConversionTarget::path, ConversionTarget::classes)
                            .containsExactlyInAnyOrder(
                                    tuple("/convert-gadgets", Set.of(GadgetV1alpha1.class, GadgetV1.class)),
                                    tuple("/convert", Set.of()));
                    assertThat(targets.conversion()).allSatisfy(conversion -> assertThat(conversion.versions())
                            .containsExactlyInAnyOrder("webhooks.operatorstarter.dev/v1alpha1",
                                    "webhooks.operatorstarter.dev/v1"));
                });
    }

    @Configuration(proxyBeanMethods = false)
    static class DeletionGuard {

        @Bean
        @AdmissionWebhook(path = "/guard-deletes", operations = DELETE)
        ValidatingHandler<ConfigMap> deletionGuard() {
            return admission -> AdmissionVerdict.allow();
        }
    }

    @Test
    void registrationNeedsAKubernetesClient() {
        new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(WebhookAutoConfiguration.class))
                .withUserConfiguration(WidgetValidator.class)
                .withPropertyValues("operator.webhook.enabled=true", "operator.webhook.port=0",
                        "operator.webhook.address=127.0.0.1", "operator.webhook.register.enabled=true")
                .run(context -> assertThat(context).hasFailed().getFailure().rootCause().hasMessageStartingWith(
                        "operator.webhook.register.enabled needs a KubernetesClient bean"));
    }

    @ParameterizedTest
    @CsvSource(delimiter = ';', value = {
            "operator.webhook.register.timeout=31s; operator.webhook.register.timeout must be whole seconds from 1s to 30s",
            "operator.webhook.register.timeout=1500ms; operator.webhook.register.timeout must be whole seconds",
            "operator.webhook.register.name=Widgets!; operator.webhook.register.name must be a DNS subdomain",
            "operator.webhook.register.api-deadline=0s; operator.webhook.register.api-deadline must be positive",
            "operator.webhook.register.failure-policy=Sometimes; Sometimes"})
    void propertiesThatDoNotFitFailStartUpNamingTheProperty(String property, String message) {
        new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(WebhookAutoConfiguration.class))
                .withPropertyValues("operator.webhook.enabled=true", property)
                .run(context -> assertThat(context).hasFailed().getFailure().hasStackTraceContaining(message));
    }

    @ParameterizedTest
    @CsvSource({
            "widgetValidator, '', widgetvalidator.webhooks.operatorstarter.dev",
            "dev.operatorstarter.autoconfigure.webhook.WidgetValidator, '', widgetvalidator.webhooks.operatorstarter.dev",
            "widgetValidator, widgetvalidator.webhooks.operatorstarter.dev, widgetvalidator-2.webhooks.operatorstarter.dev",
            "my_bean#1, '', my-bean-1.webhooks.operatorstarter.dev",
            "___, '', webhook.webhooks.operatorstarter.dev"})
    void aWebhookIsNamedAfterItsBeanAsADnsNameWithThreeSegments(String beanName, String taken, String name) {
        assertThat(WebhookRegistration.webhookName(beanName, taken.isEmpty() ? Set.of() : Set.of(taken)))
                .isEqualTo(name);
    }

    @ParameterizedTest
    @CsvSource({"0.0.0.0, 127.0.0.1", "::, 127.0.0.1", "127.0.0.1, 127.0.0.1", "::1, [::1]", "localhost, localhost"})
    void theApiServerCallsTheAddressListenedOnOrLoopbackForEveryInterface(String address, String host) {
        assertThat(WebhookRegistration.host(address)).isEqualTo(host);
    }

    private String unreachableKubeconfig() throws Exception {
        return "operator.client.kubeconfig=" + WebhookAutoConfigurationTest.unreachableCluster(folder);
    }

    @Test
    void theConversionPatchSendsTheNullThatRemovesAServiceAsTheClientWritesIt() {
        // the client's mapper leaves null values out, as this one does: the patch must keep its null all the same
        tools.jackson.databind.json.JsonMapper nonNull = tools.jackson.databind.json.JsonMapper.builder()
                .changeDefaultPropertyInclusion(inclusion -> com.fasterxml.jackson.annotation.JsonInclude.Value.construct(
                        com.fasterxml.jackson.annotation.JsonInclude.Include.NON_NULL,
                        com.fasterxml.jackson.annotation.JsonInclude.Include.NON_NULL))
                .build();
        java.util.Map<String, Object> asAMap = new java.util.HashMap<>();
        asAMap.put("service", null);
        assertThat(nonNull.writeValueAsString(asAMap)).as("a map loses its null").isEqualTo("{}");
        assertThat(nonNull.writeValueAsString(
                WebhookRegistration.clientConfigPatch("https://127.0.0.1:9443/convert", "Q0E=")))
                .isEqualTo("{\"url\":\"https://127.0.0.1:9443/convert\",\"caBundle\":\"Q0E=\",\"service\":null}");
    }

    @ParameterizedTest
    @CsvSource({"ON_COMPLETE, 200, 200", "ON_COMPLETE, 413, 413", "CANCEL, 200, 499", "ON_ERROR, 200, 500"})
    void aRequestThatEndedWithoutAnAnswerIsCountedAsSuch(reactor.core.publisher.SignalType signal, int responseCode,
            int counted) {
        assertThat(WebhookRequestHandler.code(signal, responseCode)).isEqualTo(counted);
    }
}
