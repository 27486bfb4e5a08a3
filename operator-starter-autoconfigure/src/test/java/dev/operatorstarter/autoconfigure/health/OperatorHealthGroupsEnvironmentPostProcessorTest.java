package dev.operatorstarter.autoconfigure.health;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.boot.SpringApplication;
import org.springframework.core.env.MapPropertySource;
import org.springframework.mock.env.MockEnvironment;

class OperatorHealthGroupsEnvironmentPostProcessorTest {

    private final OperatorHealthGroupsEnvironmentPostProcessor postProcessor = new OperatorHealthGroupsEnvironmentPostProcessor();

    @Test
    void readinessWaitsForTheInformersAndLivenessWatchesTheControllers() {
        MockEnvironment environment = new MockEnvironment();
        postProcessor.postProcessEnvironment(environment, new SpringApplication());
        assertThat(environment.getProperty("management.endpoint.health.group.readiness.include"))
                .isEqualTo("readinessState,informers");
        assertThat(environment.getProperty("management.endpoint.health.group.liveness.include"))
                .isEqualTo("livenessState,controllers");
    }

    @Test
    void withTheWebhookServerEnabledReadinessAlsoWaitsForIt() {
        MockEnvironment enabled = new MockEnvironment().withProperty("operator.webhook.enabled", "true");
        MockEnvironment excluded = new MockEnvironment().withProperty("operator.webhook.enabled", "true")
                .withProperty("spring.autoconfigure.exclude",
                        "dev.operatorstarter.autoconfigure.webhook.WebhookAutoConfiguration");
        postProcessor.postProcessEnvironment(enabled, new SpringApplication());
        postProcessor.postProcessEnvironment(excluded, new SpringApplication());
        assertThat(enabled.getProperty("management.endpoint.health.group.readiness.include"))
                .isEqualTo("readinessState,informers,webhooks");
        assertThat(excluded.getProperty("management.endpoint.health.group.readiness.include"))
                .isEqualTo("readinessState,informers");
    }

    @Test
    void theApplicationsOwnGroupsWin() {
        MockEnvironment environment = new MockEnvironment();
        environment.getPropertySources().addFirst(new MapPropertySource("application",
                Map.of("management.endpoint.health.group.readiness.include", "readinessState")));
        postProcessor.postProcessEnvironment(environment, new SpringApplication());
        assertThat(environment.getProperty("management.endpoint.health.group.readiness.include"))
                .isEqualTo("readinessState");
    }

    @Test
    void nothingIsAddedWhenTheIndicatorsOrTheOperatorAreDisabled() {
        for (String disabled : new String[] {"management.health.operator.enabled", "operator.enabled",
                "management.health.defaults.enabled", "management.endpoint.health.probes.enabled"}) {
            MockEnvironment environment = new MockEnvironment().withProperty(disabled, "false");
            postProcessor.postProcessEnvironment(environment, new SpringApplication());
            assertThat(environment.getPropertySources().contains(OperatorHealthGroupsEnvironmentPostProcessor.SOURCE))
                    .as(disabled).isFalse();
        }
    }

    @Test
    void nothingIsAddedWhenTheAutoConfigurationIsExcluded() {
        MockEnvironment environment = new MockEnvironment().withProperty("spring.autoconfigure.exclude",
                "com.example.Other, dev.operatorstarter.autoconfigure.wiring.OperatorControllersAutoConfiguration");
        postProcessor.postProcessEnvironment(environment, new SpringApplication());
        assertThat(environment.getPropertySources().contains(OperatorHealthGroupsEnvironmentPostProcessor.SOURCE))
                .isFalse();
    }
}
