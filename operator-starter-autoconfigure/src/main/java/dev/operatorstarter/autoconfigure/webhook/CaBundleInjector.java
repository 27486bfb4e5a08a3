package dev.operatorstarter.autoconfigure.webhook;

import dev.operatorstarter.client.KubernetesClient;
import dev.operatorstarter.client.ResourceClient;
import dev.operatorstarter.client.RetryOnConflict;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.MutatingWebhook;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.MutatingWebhookConfiguration;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingWebhook;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingWebhookConfiguration;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.WebhookClientConfig;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.WebhookConversion;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Objects;
import java.util.function.BiConsumer;
import java.util.function.Function;
import java.util.function.Predicate;
import org.jspecify.annotations.Nullable;

/**
 * Writes the serving certificate's CA as {@code caBundle} into the named webhook configurations
 * (every webhook in each) and CRDs ({@code spec.conversion.webhook.clientConfig}), each a
 * read-modify-write retried on conflict that writes only when the bundle differs. What could not
 * be done is returned as sentences (a missing object, a CRD whose conversion is not a webhook, a
 * refused write), for the health details and the next attempt.
 */
final class CaBundleInjector {

    /**
     * The limit of each read and write, retries included: shorter than the retry period's usual
     * multiples, so a hung API server never holds the thread that also reloads the certificate.
     */
    static final Duration API_DEADLINE = Duration.ofSeconds(10);

    private final KubernetesClient client;
    private final WebhookProperties.CaInjection targets;

    CaBundleInjector(KubernetesClient client, WebhookProperties.CaInjection targets) {
        this.client = Objects.requireNonNull(client, "client");
        this.targets = Objects.requireNonNull(targets, "targets");
    }

    /** Injects {@code caPem}; returns what is still to do, empty when every object has it. */
    List<String> inject(String caPem) {
        String bundle = Base64.getEncoder().encodeToString(caPem.getBytes(StandardCharsets.US_ASCII));
        List<String> pending = new ArrayList<>();
        for (String name : targets.validatingWebhookConfigurations()) {
            inject(client.resources(ValidatingWebhookConfiguration.class).withDeadline(API_DEADLINE), name, pending, configuration -> set(
                    configuration.getWebhooks(), ValidatingWebhook::getClientConfig, ValidatingWebhook::setClientConfig,
                    bundle));
        }
        for (String name : targets.mutatingWebhookConfigurations()) {
            inject(client.resources(MutatingWebhookConfiguration.class).withDeadline(API_DEADLINE), name, pending, configuration -> set(
                    configuration.getWebhooks(), MutatingWebhook::getClientConfig, MutatingWebhook::setClientConfig,
                    bundle));
        }
        for (String name : targets.customResourceDefinitions()) {
            inject(client.apiextensionsV1().customResourceDefinitions().withDeadline(API_DEADLINE), name, pending, crd -> {
                WebhookConversion webhook = webhookConversion(crd);
                if (webhook.getClientConfig() == null) {
                    webhook.setClientConfig(new io.fabric8.kubernetes.api.model.apiextensions.v1.WebhookClientConfig());
                }
                if (bundle.equals(webhook.getClientConfig().getCaBundle())) {
                    return false;
                }
                webhook.getClientConfig().setCaBundle(bundle);
                return true;
            });
        }
        return pending;
    }

    /** A CRD whose conversion is not a webhook cannot take a bundle: said, not forced. */
    private static final class NotAWebhook extends RuntimeException {
        private static final long serialVersionUID = 1L;

        NotAWebhook(String message) {
            super(message, null, false, false);
        }
    }

    private static WebhookConversion webhookConversion(CustomResourceDefinition crd) {
        var conversion = crd.getSpec() == null ? null : crd.getSpec().getConversion();
        if (conversion == null || !"Webhook".equals(conversion.getStrategy()) || conversion.getWebhook() == null) {
            throw new NotAWebhook("CustomResourceDefinition " + crd.getMetadata().getName() + " has conversion strategy "
                    + (conversion == null || conversion.getStrategy() == null ? "None" : conversion.getStrategy())
                    + ", not Webhook with a webhook stanza: there is no caBundle to set");
        }
        return conversion.getWebhook();
    }

    private static <T extends HasMetadata> void inject(ResourceClient<T> resources, String name, List<String> pending,
            Predicate<T> change) {
        String kind = Objects.requireNonNullElse(resources.type().kind(), resources.type().plural());
        try {
            boolean exists = RetryOnConflict.run(() -> {
                var found = resources.find(name);
                if (found.isEmpty()) {
                    return false;
                }
                T object = found.get();
                if (change.test(object)) {
                    resources.update(object);
                }
                return true;
            });
            if (!exists) {
                pending.add(kind + " " + name + " does not exist (yet)");
            }
        } catch (NotAWebhook e) {
            pending.add(e.getMessage());
        } catch (RuntimeException e) {
            pending.add("cannot set the caBundle of " + kind + " " + name + ": " + e.getMessage());
        }
    }

    /**
     * Sets {@code bundle} in the client configuration of every webhook (validating and mutating
     * webhooks are two fabric8 classes with the same field); whether any changed.
     */
    private static <W> boolean set(@Nullable List<W> webhooks, Function<W, @Nullable WebhookClientConfig> get,
            BiConsumer<W, WebhookClientConfig> put, String bundle) {
        boolean changed = false;
        for (W webhook : webhooks == null ? List.<W>of() : webhooks) {
            WebhookClientConfig config = get.apply(webhook);
            if (config == null) {
                config = new WebhookClientConfig();
                put.accept(webhook, config);
            }
            if (!bundle.equals(config.getCaBundle())) {
                config.setCaBundle(bundle);
                changed = true;
            }
        }
        return changed;
    }

    @Override
    public String toString() {
        return "caBundle injection into " + describe(targets);
    }

    static String describe(WebhookProperties.CaInjection targets) {
        List<String> names = new ArrayList<>();
        targets.validatingWebhookConfigurations().forEach(name -> names.add("ValidatingWebhookConfiguration " + name));
        targets.mutatingWebhookConfigurations().forEach(name -> names.add("MutatingWebhookConfiguration " + name));
        targets.customResourceDefinitions().forEach(name -> names.add("CustomResourceDefinition " + name));
        return String.join(", ", names);
    }
}
