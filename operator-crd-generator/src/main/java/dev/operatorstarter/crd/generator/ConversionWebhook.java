package dev.operatorstarter.crd.generator;

import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Where the API server sends a CRD's {@code ConversionReview}s: a Service in the cluster (the usual
 * case: the operator's own webhook Service) or a URL (outside the cluster, or a loopback server in
 * tests). Makes the CRD's {@code spec.conversion} {@code strategy: Webhook} with
 * {@code conversionReviewVersions: [v1]}; the {@code caBundle} is left to whoever issues the
 * certificate (cert-manager's CA injector, or the starter's webhook server at start-up).
 *
 * @param url the webhook's {@code https://} URL, or null for a Service
 * @param serviceNamespace the Service's namespace, or null for a URL
 * @param serviceName the Service's name, or null for a URL
 * @param path the path on the Service, for example {@code /convert}; null for a URL
 * @param port the Service's port; Kubernetes' default is 443
 */
public record ConversionWebhook(@Nullable String url, @Nullable String serviceNamespace, @Nullable String serviceName,
        @Nullable String path, int port) {

    public ConversionWebhook {
        if ((url == null) == (serviceName == null)) {
            throw new IllegalArgumentException("a conversion webhook has either a url or a service, not "
                    + (url == null ? "neither" : "both"));
        }
        if (url != null && !url.startsWith("https://")) {
            throw new IllegalArgumentException("a conversion webhook's url must start with https://, was " + url);
        }
        if (serviceName != null) {
            Objects.requireNonNull(serviceNamespace, "serviceNamespace");
            if (path != null && !path.startsWith("/")) {
                throw new IllegalArgumentException("a conversion webhook's path must start with /, was " + path);
            }
        }
        if (port < 1 || port > 65535) {
            throw new IllegalArgumentException("a conversion webhook's port must be 1 to 65535, was " + port);
        }
    }

    /** The Service {@code namespace/name}, port 443, at {@code path}. */
    public static ConversionWebhook service(String namespace, String name, String path) {
        return new ConversionWebhook(null, namespace, name, path, 443);
    }

    /** An {@code https://} URL. */
    public static ConversionWebhook url(String url) {
        return new ConversionWebhook(url, null, null, null, 443);
    }
}
