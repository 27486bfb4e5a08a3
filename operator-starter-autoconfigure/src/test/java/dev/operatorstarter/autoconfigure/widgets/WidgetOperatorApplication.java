package dev.operatorstarter.autoconfigure.widgets;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Import;

/** A small operator as a user writes one: one {@code @Reconciler} bean, everything else auto-configured. */
@SpringBootConfiguration
@EnableAutoConfiguration
@Import({WidgetReconciler.class, SecretsToWidgets.class})
public class WidgetOperatorApplication {
}
