package dev.operatorstarter.autoconfigure.webhook;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Import;

/** An operator that serves webhooks only: two for widgets, one for ConfigMaps, the gadgets' conversion. */
@SpringBootConfiguration
@EnableAutoConfiguration
@Import({WidgetValidator.class, WidgetDefaulter.class, ConfigMapGuard.class, GadgetConverter.class})
public class WebhookApplication {
}
