package dev.operatorstarter.autoconfigure.webhook;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/**
 * No silent no-op: when {@code operator.webhook.enabled} is not set, the {@link AdmissionWebhook}
 * and {@link ConversionWebhook} beans are not served (the server opens a port, so it is asked for),
 * and start-up says so once, naming the beans and the property.
 */
@AutoConfiguration
@ConditionalOnBooleanProperty(name = "operator.enabled", matchIfMissing = true)
@ConditionalOnBooleanProperty(name = "operator.webhook.enabled", havingValue = false, matchIfMissing = true)
public final class WebhooksNotServedAutoConfiguration {

    private static final Logger log = LoggerFactory.getLogger(WebhooksNotServedAutoConfiguration.class);

    @Bean
    @ConditionalOnMissingBean(name = "webhooksNotServedWarning")
    static SmartInitializingSingleton webhooksNotServedWarning(ConfigurableListableBeanFactory beanFactory) {
        return () -> {
            List<String> beans = unserved(beanFactory);
            if (!beans.isEmpty()) {
                log.warn("{} webhook bean(s) are not served, as operator.webhook.enabled is not true: {}. Set "
                        + "operator.webhook.enabled=true to serve them over HTTPS on operator.webhook.port (docs/webhooks.md)",
                        beans.size(), String.join(", ", beans));
            }
        };
    }

    /** The names of the beans annotated {@link AdmissionWebhook} or {@link ConversionWebhook}, in order. */
    static List<String> unserved(ConfigurableListableBeanFactory beanFactory) {
        List<String> names = new ArrayList<>(Arrays.asList(beanFactory.getBeanNamesForAnnotation(AdmissionWebhook.class)));
        for (String name : beanFactory.getBeanNamesForAnnotation(ConversionWebhook.class)) {
            if (!names.contains(name)) {
                names.add(name);
            }
        }
        return names;
    }
}
