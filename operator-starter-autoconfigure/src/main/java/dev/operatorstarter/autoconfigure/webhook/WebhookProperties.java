package dev.operatorstarter.autoconfigure.webhook;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.unit.DataSize;

/**
 * The webhook server, under {@code operator.webhook.*}: the HTTPS port the API server calls with
 * admission and conversion reviews, separate from {@code server.port}, and its certificate.
 * Checked when bound: a bad value fails start-up naming the property.
 *
 * @param enabled whether the {@code @AdmissionWebhook} and {@code @ConversionWebhook} beans are
 *     served; off by default, since it opens a port
 * @param port the HTTPS port (controller-runtime's default, 9443); 0 for any free port (see
 *     {@code WebhookServer.port()})
 * @param address the address to listen on; default every interface
 * @param maxRequestSize the largest review body accepted; larger ones are answered 413 (the API
 *     server's own limit on objects is about 3 MB, and a review carries two)
 * @param shutdownTimeout how long a stop waits for reviews in flight
 * @param idleTimeout how long a kept-alive connection may wait for its next request before it is
 *     closed (controller-runtime's 90 s)
 * @param headerReadTimeout how long a request's line and headers may take to arrive, counted from
 *     the connection's opening (TLS handshake included) or from the first byte of a later request
 *     on a kept-alive connection; the connection is closed after it (controller-runtime's 32 s)
 * @param bodyReadTimeout how long a request's body may take to arrive once its headers have; a
 *     slower upload is answered 408 and its connection closed (default 30 s, the API server's
 *     longest {@code timeoutSeconds})
 * @param maxHeaderSize the largest request headers accepted, all together; larger ones are
 *     answered 431 and the connection closed (controller-runtime's 1 MB). The request line has a
 *     limit of its own, 4 KB
 * @param maxConcurrentRequests how many reviews the server reads and answers at once; one more is
 *     answered 429 at once (the API server counts it as a failed call), which bounds the memory the
 *     bodies take to about this many times {@code max-request-size}
 * @param maxConnections how many connections may be open at once; a connection beyond it is closed
 *     as soon as it is accepted
 * @param clientCa a PEM bundle of CA certificates: when set, a caller must present a client
 *     certificate one of them signed (the API server does when its AdmissionConfiguration gives
 *     it a kubeconfig with one), else the TLS handshake is refused; default none, no client
 *     certificate asked for. Read at start
 * @param tlsMinVersion the oldest TLS version accepted: {@code 1.2} or {@code 1.3}
 * @param tlsCipherSuites the cipher suites offered, by their standard names: TLS 1.3's and, for TLS
 *     1.2, ECDHE (forward secret) with AES-GCM or ChaCha20-Poly1305 by default
 * @param certificate the serving certificate: files (for example from cert-manager) or generated
 * @param caInjection the webhook configurations and CRDs whose {@code caBundle} the application
 *     sets to the CA of its serving certificate
 * @param register the webhook configurations and CRD conversion stanzas the application writes
 *     itself, pointing at its own server: for local runs and tests
 */
@ConfigurationProperties("operator.webhook")
public record WebhookProperties(@DefaultValue("false") boolean enabled, @DefaultValue("9443") int port,
        @DefaultValue("0.0.0.0") String address, @DefaultValue("7MB") DataSize maxRequestSize,
        @DefaultValue("10s") Duration shutdownTimeout, @DefaultValue("90s") Duration idleTimeout,
        @DefaultValue("32s") Duration headerReadTimeout, @DefaultValue("30s") Duration bodyReadTimeout,
        @DefaultValue("1MB") DataSize maxHeaderSize, @DefaultValue("32") int maxConcurrentRequests,
        @DefaultValue("1000") int maxConnections, @Nullable Path clientCa, @DefaultValue("1.2") String tlsMinVersion,
        @DefaultValue({"TLS_AES_128_GCM_SHA256", "TLS_AES_256_GCM_SHA384", "TLS_CHACHA20_POLY1305_SHA256",
                "TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256", "TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256",
                "TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384", "TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384",
                "TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256", "TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256"})
        List<String> tlsCipherSuites, @DefaultValue Certificate certificate,
        @DefaultValue CaInjection caInjection, @DefaultValue Register register) {

    /** The TLS versions {@code tls-min-version} may name, oldest first, with the protocol names they enable. */
    private static final Map<String, List<String>> TLS_VERSIONS = Map.of("1.2", List.of("TLSv1.3", "TLSv1.2"),
            "1.3", List.of("TLSv1.3"));

    public WebhookProperties {
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("operator.webhook.port must be 0 to 65535, not " + port);
        }
        if (address.isBlank()) {
            throw new IllegalArgumentException("operator.webhook.address must not be blank");
        }
        if (maxRequestSize.toBytes() < 1024) {
            throw new IllegalArgumentException("operator.webhook.max-request-size must be at least 1KB, not "
                    + maxRequestSize);
        }
        positive(shutdownTimeout, "operator.webhook.shutdown-timeout", true);
        positive(idleTimeout, "operator.webhook.idle-timeout", false);
        positive(headerReadTimeout, "operator.webhook.header-read-timeout", false);
        positive(bodyReadTimeout, "operator.webhook.body-read-timeout", false);
        if (maxHeaderSize.toBytes() < 1024 || maxHeaderSize.toBytes() > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("operator.webhook.max-header-size must be from 1KB to 2GB, not "
                    + maxHeaderSize);
        }
        if (maxRequestSize.toBytes() > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("operator.webhook.max-request-size must be at most 2GB, not "
                    + maxRequestSize);
        }
        if (maxConcurrentRequests < 1) {
            throw new IllegalArgumentException("operator.webhook.max-concurrent-requests must be at least 1, not "
                    + maxConcurrentRequests);
        }
        if (maxConnections < 1) {
            throw new IllegalArgumentException("operator.webhook.max-connections must be at least 1, not "
                    + maxConnections);
        }
        if (!TLS_VERSIONS.containsKey(tlsMinVersion)) {
            throw new IllegalArgumentException("operator.webhook.tls-min-version must be 1.2 or 1.3, not '"
                    + tlsMinVersion + "'");
        }
        tlsCipherSuites = List.copyOf(tlsCipherSuites);
        if (tlsCipherSuites.isEmpty() || tlsCipherSuites.stream().anyMatch(String::isBlank)) {
            throw new IllegalArgumentException("operator.webhook.tls-cipher-suites must name at least one cipher suite "
                    + "and no blank one, not " + tlsCipherSuites);
        }
    }

    /** The TLS protocol names enabled: from {@code tls-min-version} up to TLS 1.3. */
    public List<String> tlsProtocols() {
        return TLS_VERSIONS.get(tlsMinVersion);
    }

    /**
     * The serving certificate. With {@code cert-file} and {@code key-file} set, the server serves
     * those (PEM; the key PKCS#8, PKCS#1 or SEC1) and reads them again when they change, so a
     * certificate that cert-manager rotates in a mounted Secret is served without a restart.
     * Without them, a certificate authority and a serving certificate for {@code dns-names} and
     * {@code ip-addresses} are generated at start-up (this needs
     * {@code org.bouncycastle:bcpkix-jdk18on}); each start generates new ones, and both are made
     * anew once a third of {@code validity} is left.
     *
     * @param certFile the certificate chain (PEM), the serving certificate first
     * @param keyFile its private key (PEM)
     * @param caFile the CA certificate (PEM) that signed the certificate, to inject into
     *     {@code ca-injection}'s objects when the files are supplied; without it nothing is injected
     *     (cert-manager's CA injector does it)
     * @param reloadInterval how often the files are checked for a change, or a generated
     *     certificate for renewal
     * @param dnsNames the DNS names of a generated certificate: the Service's
     *     {@code <service>.<namespace>.svc} in a cluster
     * @param ipAddresses the IP addresses of a generated certificate
     * @param validity how long a generated certificate (and its CA) is valid; both are renewed
     *     when a third of it is left
     */
    public record Certificate(@Nullable Path certFile, @Nullable Path keyFile, @Nullable Path caFile,
            @DefaultValue("10s") Duration reloadInterval, @DefaultValue("localhost") List<String> dnsNames,
            @DefaultValue("127.0.0.1") List<String> ipAddresses, @DefaultValue("365d") Duration validity) {

        public Certificate {
            if ((certFile == null) != (keyFile == null)) {
                throw new IllegalArgumentException("operator.webhook.certificate.cert-file and key-file go together: "
                        + (certFile == null ? "key-file" : "cert-file") + " is set, the other is not");
            }
            positive(reloadInterval, "operator.webhook.certificate.reload-interval", false);
            if (validity.compareTo(Duration.ofHours(1)) < 0) {
                throw new IllegalArgumentException("operator.webhook.certificate.validity must be at least 1h, not "
                        + validity);
            }
            if (certFile == null && dnsNames.isEmpty() && ipAddresses.isEmpty()) {
                throw new IllegalArgumentException("a generated certificate needs a name: set "
                        + "operator.webhook.certificate.dns-names or ip-addresses");
            }
            dnsNames = List.copyOf(dnsNames);
            ipAddresses = List.copyOf(ipAddresses);
        }

        /** Whether the certificate is generated rather than read from files. */
        public boolean generated() {
            return certFile == null;
        }
    }

    /**
     * Where the CA of the serving certificate is written, as {@code caBundle}, so the API server
     * trusts the server: into every webhook of each named ValidatingWebhookConfiguration and
     * MutatingWebhookConfiguration, and into {@code spec.conversion.webhook.clientConfig} of each
     * named CustomResourceDefinition. The bundle is extended, not replaced: the CA first, then the
     * certificates it already held that are still valid (other replicas' CAs, a CA being rotated
     * out), at most 8. Done at start-up, retried until every object exists, then checked again
     * periodically and after a certificate change, so an object re-applied without the bundle
     * gets it back. Readiness waits for it; a certificate with a new CA is served once that CA is
     * everywhere.
     *
     * @param validatingWebhookConfigurations ValidatingWebhookConfiguration names
     * @param mutatingWebhookConfigurations MutatingWebhookConfiguration names
     * @param customResourceDefinitions CustomResourceDefinition names ({@code <plural>.<group>}),
     *     whose conversion strategy is {@code Webhook}
     * @param retryPeriod the pause between attempts while an object is missing or a write failed
     * @param checkPeriod the pause between checks once every object has the bundle
     */
    public record CaInjection(@DefaultValue List<String> validatingWebhookConfigurations,
            @DefaultValue List<String> mutatingWebhookConfigurations,
            @DefaultValue List<String> customResourceDefinitions, @DefaultValue("2s") Duration retryPeriod,
            @DefaultValue("1m") Duration checkPeriod) {

        public CaInjection {
            validatingWebhookConfigurations = List.copyOf(validatingWebhookConfigurations);
            mutatingWebhookConfigurations = List.copyOf(mutatingWebhookConfigurations);
            customResourceDefinitions = List.copyOf(customResourceDefinitions);
            positive(retryPeriod, "operator.webhook.ca-injection.retry-period", false);
            positive(checkPeriod, "operator.webhook.ca-injection.check-period", false);
        }

        /** Whether any object is named. */
        public boolean any() {
            return !validatingWebhookConfigurations.isEmpty() || !mutatingWebhookConfigurations.isEmpty()
                    || !customResourceDefinitions.isEmpty();
        }
    }

    /**
     * Registration of the webhooks with the API server, as controller-runtime's envtest does: once
     * the server listens, one ValidatingWebhookConfiguration and one MutatingWebhookConfiguration
     * named {@code name} are applied (server-side apply) with a webhook per {@code @AdmissionWebhook}
     * bean at {@code https://<host>:<port><path>} and the server's CA, and every CRD converted by a
     * {@code @ConversionWebhook} bean gets a {@code Webhook} conversion pointing at its path. The
     * configurations are deleted when the application stops; CRDs are left as they are. Readiness
     * waits for it. For local runs and tests ({@code LocalKubernetes} switches it on): in a
     * cluster, the chart or the manifests own these objects.
     *
     * @param enabled whether the application registers its webhooks with the API server; off by
     *     default, on with {@code LocalKubernetes}
     * @param name the name of the ValidatingWebhookConfiguration and the MutatingWebhookConfiguration
     *     written; default {@code spring.application.name}, else {@code operator}
     * @param host the host of the webhooks' URL; default the address listened on, or
     *     {@code 127.0.0.1} when that is every interface (the certificate must name it)
     * @param failurePolicy what the API server does when it cannot call a webhook: {@code Fail}
     *     refuses the request, {@code Ignore} lets it through
     * @param timeout how long the API server waits for each call (1 to 30 seconds)
     * @param objectSelector labels an object must have to be sent to the admission webhooks; default
     *     none (every object of the resource)
     * @param apiDeadline the deadline of each call to the API server that registers or removes them
     * @param retryPeriod the pause between attempts while a registration failed or a CRD is missing
     */
    public record Register(@DefaultValue("false") boolean enabled, @Nullable String name, @Nullable String host,
            @DefaultValue("Fail") FailurePolicy failurePolicy, @DefaultValue("10s") Duration timeout,
            @DefaultValue Map<String, String> objectSelector, @DefaultValue("10s") Duration apiDeadline,
            @DefaultValue("2s") Duration retryPeriod) {

        public Register {
            if (timeout.compareTo(Duration.ofSeconds(1)) < 0 || timeout.compareTo(Duration.ofSeconds(30)) > 0
                    || timeout.toMillis() % 1000 != 0) {
                throw new IllegalArgumentException("operator.webhook.register.timeout must be whole seconds from 1s to "
                        + "30s (the API server's limits), not " + timeout);
            }
            if (name != null && !name.isBlank() && !name.matches("[a-z0-9]([-a-z0-9.]{0,251}[a-z0-9])?")) {
                throw new IllegalArgumentException("operator.webhook.register.name must be a DNS subdomain (lower case "
                        + "letters, digits, '-' and '.'), not '" + name + "'");
            }
            positive(apiDeadline, "operator.webhook.register.api-deadline", false);
            positive(retryPeriod, "operator.webhook.register.retry-period", false);
            objectSelector = Map.copyOf(objectSelector);
        }
    }

    /** A webhook's {@code failurePolicy}, spelled as the API spells it. */
    public enum FailurePolicy {
        /** The request is refused when the webhook cannot be called. */
        Fail,
        /** The request goes on as if the webhook had allowed it. */
        Ignore
    }

    private static void positive(Duration value, String property, boolean zeroAllowed) {
        if (value.isNegative() || (!zeroAllowed && value.isZero())) {
            throw new IllegalArgumentException(property + " must be " + (zeroAllowed ? "zero or more" : "positive")
                    + ", not " + value);
        }
    }
}
