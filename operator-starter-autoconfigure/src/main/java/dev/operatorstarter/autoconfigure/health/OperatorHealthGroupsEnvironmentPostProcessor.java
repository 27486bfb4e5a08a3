package dev.operatorstarter.autoconfigure.health;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.boot.EnvironmentPostProcessor;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.MapPropertySource;
import org.springframework.util.ClassUtils;

/**
 * Puts the operator's health indicators into the Kubernetes probe groups by default: readiness
 * waits for {@code informers} (caches synced) and, with {@code operator.webhook.enabled=true}, for
 * {@code webhooks} (the webhook server listening, its CA injected); liveness also checks
 * {@code controllers}. Added as
 * the lowest-precedence property source, so an application that configures either group's
 * {@code include} decides alone; nothing is added when the indicators are disabled or the
 * auto-configuration is excluded by {@code spring.autoconfigure.exclude} (Boot would otherwise
 * reject a group naming a missing contributor). An exclusion in {@code @EnableAutoConfiguration}
 * cannot be seen here: switch the operator off with {@code operator.enabled=false} instead.
 */
public final class OperatorHealthGroupsEnvironmentPostProcessor implements EnvironmentPostProcessor {

    static final String SOURCE = "operatorHealthGroups";
    /** The auto-configurations the indicators need: excluding any of them leaves the groups alone. */
    private static final List<String> AUTO_CONFIGURATIONS = List.of(
            "dev.operatorstarter.autoconfigure.health.OperatorHealthContributorAutoConfiguration",
            "dev.operatorstarter.autoconfigure.wiring.OperatorControllersAutoConfiguration",
            "dev.operatorstarter.autoconfigure.wiring.OperatorInformersAutoConfiguration",
            "dev.operatorstarter.autoconfigure.wiring.OperatorClientAutoConfiguration");
    private static final String WEBHOOKS = "dev.operatorstarter.autoconfigure.webhook.WebhookAutoConfiguration";

    @Override
    public void postProcessEnvironment(ConfigurableEnvironment environment, SpringApplication application) {
        if (!ClassUtils.isPresent("org.springframework.boot.health.contributor.HealthIndicator",
                application.getClassLoader()) || !enabled(environment)) {
            return;
        }
        Map<String, Object> groups = new LinkedHashMap<>();
        groups.put("management.endpoint.health.group.readiness.include",
                "readinessState,informers" + (webhooks(environment) ? ",webhooks" : ""));
        groups.put("management.endpoint.health.group.liveness.include", "livenessState,controllers");
        environment.getPropertySources().addLast(new MapPropertySource(SOURCE, groups));
    }

    /** Whether the webhook server runs and is not excluded: its indicator then exists. */
    private static boolean webhooks(ConfigurableEnvironment environment) {
        return environment.getProperty("operator.webhook.enabled", Boolean.class, false)
                && excluded(environment).stream().noneMatch(WEBHOOKS::equals);
    }

    private static List<String> excluded(ConfigurableEnvironment environment) {
        return Binder.get(environment).bind("spring.autoconfigure.exclude", Bindable.listOf(String.class))
                .orElse(List.of()).stream().map(String::strip).toList();
    }

    private static boolean enabled(ConfigurableEnvironment environment) {
        boolean defaults = environment.getProperty("management.health.defaults.enabled", Boolean.class, true);
        boolean excluded = excluded(environment).stream().anyMatch(AUTO_CONFIGURATIONS::contains);
        return !excluded && environment.getProperty("operator.enabled", Boolean.class, true)
                && environment.getProperty("management.health.operator.enabled", Boolean.class, defaults)
                && environment.getProperty("management.endpoint.health.probes.enabled", Boolean.class, true);
    }
}
