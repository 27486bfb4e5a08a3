package dev.operatorstarter.autoconfigure.webhook;

import dev.operatorstarter.client.KubernetesClient;
import dev.operatorstarter.client.ResourceClient;
import dev.operatorstarter.client.RetryOnConflict;
import dev.operatorstarter.time.TimeSource;
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
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Objects;
import java.util.function.BiConsumer;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes the serving certificate's CA into the {@code caBundle} of the named webhook
 * configurations (every webhook in each) and CRDs ({@code spec.conversion.webhook.clientConfig}),
 * as a {@link CaBundle} merge: the CA first, the other certificates the bundle holds kept while
 * they are valid (the CAs of other replicas, the CA being rotated out), so no writer takes trust
 * away from another. Each object is a read-modify-write on its {@code resourceVersion}, retried on
 * conflict (replicas write the same objects), that writes only when the bundle must change. What
 * could not be done is returned as sentences (a missing object, a CRD whose conversion is not a
 * webhook, a refused write), for the health details and the next attempt; what was dropped as
 * unreadable is logged, by object.
 */
final class CaBundleInjector {

    /**
     * The limit of each read and write, retries included: shorter than the retry period's usual
     * multiples, so a hung API server never holds the thread that also reloads the certificate.
     */
    static final Duration API_DEADLINE = Duration.ofSeconds(10);
    private static final Logger log = LoggerFactory.getLogger(CaBundleInjector.class);

    /**
     * What one pass did.
     *
     * @param pending what is still to do, a sentence each; empty when every object carries the CAs
     * @param written the objects this pass had to write (the others already carried the CAs)
     */
    record Outcome(List<String> pending, List<String> written) {

        Outcome {
            pending = List.copyOf(pending);
            written = List.copyOf(written);
        }

        /** Every object carried the CAs before this pass: nothing was missing, nothing written. */
        boolean settled() {
            return pending.isEmpty() && written.isEmpty();
        }
    }

    private final KubernetesClient client;
    private final WebhookProperties.CaInjection targets;
    private final TimeSource time;

    /** @param time judges which certificates of a bundle have expired */
    CaBundleInjector(KubernetesClient client, WebhookProperties.CaInjection targets, TimeSource time) {
        this.client = Objects.requireNonNull(client, "client");
        this.targets = Objects.requireNonNull(targets, "targets");
        this.time = Objects.requireNonNull(time, "time");
    }

    /**
     * Makes every object's bundle carry {@code caPem} (one CA or several, PEM), first.
     */
    Outcome inject(String caPem) {
        List<String> pending = new ArrayList<>();
        List<String> written = new ArrayList<>();
        for (String name : targets.validatingWebhookConfigurations()) {
            inject(client.resources(ValidatingWebhookConfiguration.class).withDeadline(API_DEADLINE), name, caPem,
                    pending, written, (configuration, bundle) -> set(configuration.getWebhooks(),
                            ValidatingWebhook::getClientConfig, ValidatingWebhook::setClientConfig, bundle));
        }
        for (String name : targets.mutatingWebhookConfigurations()) {
            inject(client.resources(MutatingWebhookConfiguration.class).withDeadline(API_DEADLINE), name, caPem,
                    pending, written, (configuration, bundle) -> set(configuration.getWebhooks(),
                            MutatingWebhook::getClientConfig, MutatingWebhook::setClientConfig, bundle));
        }
        for (String name : targets.customResourceDefinitions()) {
            inject(client.apiextensionsV1().customResourceDefinitions().withDeadline(API_DEADLINE), name, caPem,
                    pending, written, (crd, bundle) -> {
                        WebhookConversion webhook = webhookConversion(crd);
                        if (webhook.getClientConfig() == null) {
                            webhook.setClientConfig(
                                    new io.fabric8.kubernetes.api.model.apiextensions.v1.WebhookClientConfig());
                        }
                        var config = webhook.getClientConfig();
                        String merged = bundle.apply(config.getCaBundle());
                        if (merged == null) {
                            return false;
                        }
                        config.setCaBundle(merged);
                        return true;
                    });
        }
        return new Outcome(pending, written);
    }

    /**
     * Sets the merged bundles of one object; whether any changed. {@code bundle} turns a
     * {@code caBundle} as found (base64) into the one to set, null when it is right.
     */
    private interface Change<T> {
        boolean apply(T object, Function<@Nullable String, @Nullable String> bundle);
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

    private <T extends HasMetadata> void inject(ResourceClient<T> resources, String name, String caPem,
            List<String> pending, List<String> written, Change<T> change) {
        String kind = Objects.requireNonNullElse(resources.type().kind(), resources.type().plural());
        String object = kind + " " + name;
        try {
            List<String> dropped = new ArrayList<>();
            Boolean wrote = RetryOnConflict.run(() -> {
                dropped.clear(); // each attempt reads the object anew
                var found = resources.find(name);
                if (found.isEmpty()) {
                    return null;
                }
                T current = found.get();
                Instant now = time.now();
                if (!change.apply(current, existing -> merged(existing, caPem, now, dropped))) {
                    return false;
                }
                resources.update(current);
                return true;
            });
            if (wrote == null) {
                pending.add(object + " does not exist (yet)");
            } else if (wrote) {
                written.add(object);
                if (!dropped.isEmpty()) {
                    log.warn("Dropped from the caBundle of {} what is not a readable certificate: {}", object,
                            String.join("; ", dropped));
                }
            }
        } catch (NotAWebhook e) {
            pending.add(e.getMessage());
        } catch (RuntimeException e) {
            pending.add("cannot set the caBundle of " + object + ": " + e.getMessage());
        }
    }

    /** {@code caPem} merged into the base64 {@code caBundle} {@code existing}; null when it already is right. */
    private static @Nullable String merged(@Nullable String existing, String caPem, Instant now, List<String> dropped) {
        String decoded;
        try {
            decoded = existing == null ? null : new String(Base64.getDecoder().decode(existing), StandardCharsets.US_ASCII);
        } catch (IllegalArgumentException e) {
            dropped.add("a caBundle that is not base64");
            decoded = "";
        }
        CaBundle.Merge merge = CaBundle.merge(caPem, decoded, now);
        dropped.addAll(merge.dropped());
        String pem = merge.pem();
        return pem == null ? null : Base64.getEncoder().encodeToString(pem.getBytes(StandardCharsets.US_ASCII));
    }

    /**
     * Sets the merged bundle in the client configuration of every webhook (validating and mutating
     * webhooks are two fabric8 classes with the same field); whether any changed.
     */
    private static <W> boolean set(@Nullable List<W> webhooks, Function<W, @Nullable WebhookClientConfig> get,
            BiConsumer<W, WebhookClientConfig> put, Function<@Nullable String, @Nullable String> bundle) {
        boolean changed = false;
        for (W webhook : webhooks == null ? List.<W>of() : webhooks) {
            WebhookClientConfig config = get.apply(webhook);
            if (config == null) {
                config = new WebhookClientConfig();
                put.accept(webhook, config);
            }
            String merged = bundle.apply(config.getCaBundle());
            if (merged != null) {
                config.setCaBundle(merged);
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
