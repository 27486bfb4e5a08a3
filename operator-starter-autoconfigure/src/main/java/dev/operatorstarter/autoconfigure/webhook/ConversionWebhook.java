package dev.operatorstarter.autoconfigure.webhook;

import io.fabric8.kubernetes.api.model.HasMetadata;
import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.springframework.stereotype.Component;

/**
 * Serves a bean as (part of) a CRD conversion webhook at {@link #path()} on the webhook server
 * ({@code operator.webhook.*}): a {@link dev.operatorstarter.webhook.Converter} between two
 * versions of a kind, or a ready {@link dev.operatorstarter.webhook.ConversionEndpoint}.
 *
 * <pre>{@code
 * @ConversionWebhook(path = "/convert-gadgets")
 * class GadgetConverter implements Converter<GadgetV1alpha1, GadgetV1> { ... }
 * }</pre>
 *
 * <p>Every converter bean with the same path joins one conversion endpoint, so a kind with three
 * versions has two or three converter beans on one path; {@link #hub()} declares the version
 * conversions between the others go through (it may be given on any of them, and must agree).
 * The versions are the converter's type arguments, read as for {@link AdmissionWebhook}. Put it
 * on a class (a stereotype: component scanning registers it) or a {@code @Bean} method. The path
 * is what the CRD's {@code spec.conversion.webhook.clientConfig} points at. Nothing is served
 * unless {@code operator.webhook.enabled=true}.
 */
@Target({ElementType.TYPE, ElementType.METHOD})
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Component
public @interface ConversionWebhook {

    /** The HTTP path, starting with {@code /}; one path per kind. */
    String path();

    /**
     * The hub version's class: converting between two versions without a converter of their own
     * goes to the hub and from it. Default {@code HasMetadata.class}: no hub.
     */
    Class<? extends HasMetadata> hub() default HasMetadata.class;
}
