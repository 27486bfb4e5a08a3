package dev.operatorstarter.autoconfigure.local;

import dev.operatorstarter.autoconfigure.widgets.WidgetOperatorApplication;
import org.springframework.boot.SpringApplication;

/**
 * A local run as the archetype's {@code Local<Kind>Operator} writes one, for the child JVM of
 * {@link LocalRunInterruptIT}: the widget operator against a local API server this JVM starts.
 */
public final class LocalWidgetOperator {

    private LocalWidgetOperator() {
    }

    public static void main(String[] args) {
        SpringApplication.from(LocalWidgetOperator::applicationMain).with(LocalKubernetes.class).run(args);
    }

    /** The application's own main, as a user's would be. */
    static void applicationMain(String[] args) {
        SpringApplication.run(WidgetOperatorApplication.class, args);
    }
}
