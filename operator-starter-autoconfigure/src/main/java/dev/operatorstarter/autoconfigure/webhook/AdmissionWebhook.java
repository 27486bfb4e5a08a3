package dev.operatorstarter.autoconfigure.webhook;

import dev.operatorstarter.webhook.Admission.Operation;
import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.springframework.stereotype.Component;

/**
 * Serves a bean as an admission webhook at {@link #path()} on the webhook server
 * ({@code operator.webhook.*}): a {@link dev.operatorstarter.webhook.ValidatingHandler} or a
 * {@link dev.operatorstarter.webhook.MutatingHandler} of one object class, or a ready
 * {@link dev.operatorstarter.webhook.AdmissionEndpoint}.
 *
 * <pre>{@code
 * @AdmissionWebhook(path = "/validate-widgets")
 * class WidgetValidator implements ValidatingHandler<Widget> {
 *     public AdmissionVerdict validate(Admission<Widget> admission) { ... }
 * }
 * }</pre>
 *
 * <p>Put it on a class or on a {@code @Bean} method. Like {@code @Reconciler} it is a stereotype,
 * meta-annotated with {@link Component @Component}, so component scanning registers an annotated
 * class by itself. The object class is the handler's type argument: a class that implements the
 * handler with its type, or a {@code @Bean} method whose return type names it
 * ({@code ValidatingHandler<Widget>}); a bean whose type argument cannot be read fails start-up
 * naming it. The path is what the webhook configuration's {@code clientConfig} points at
 * ({@code service.path} or the path of {@code url}), and the {@code webhook} label of the
 * webhook metrics. Nothing is served unless {@code operator.webhook.enabled=true}.
 */
@Target({ElementType.TYPE, ElementType.METHOD})
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Component
public @interface AdmissionWebhook {

    /** The HTTP path, starting with {@code /}; unique among the application's webhooks. */
    String path();

    /**
     * The operations the webhook is called for, when the application registers it with the API
     * server ({@code operator.webhook.register.enabled}); default {@code CREATE} and {@code UPDATE}.
     */
    Operation[] operations() default {Operation.CREATE, Operation.UPDATE};
}
