package dev.operatorstarter.autoconfigure.webhook;

import dev.operatorstarter.time.TimeSource;

/**
 * Where the webhook server's certificate comes from: files that may change, or a certificate
 * generated at start-up and renewed.
 */
interface CertificateSource {

    /**
     * The key to serve. Files are read again on every call (the server calls it every
     * {@code reload-interval}); a generated certificate is made on the first call and returned
     * from then on, until a third of its validity is left: then a new CA and certificate are made.
     * The server serves a key whose CA changed only once that CA is injected (see
     * {@link NettyWebhookServer}).
     *
     * @throws InvalidWebhookException naming the file or the step that failed
     */
    ServingKey load();

    /** Where the certificate comes from, for logs and health. */
    String describe();

    /** The source {@code properties} describe; {@code classLoader} is asked whether BouncyCastle is there. */
    static CertificateSource of(WebhookProperties.Certificate properties, ClassLoader classLoader, TimeSource time) {
        if (!properties.generated()) {
            return new CertificateFiles(properties.certFile(), properties.keyFile(), properties.caFile());
        }
        if (!org.springframework.util.ClassUtils.isPresent("org.bouncycastle.cert.X509v3CertificateBuilder",
                classLoader)) {
            throw new InvalidWebhookException("the webhook server's certificate is generated (no "
                    + "operator.webhook.certificate.cert-file is set), which needs BouncyCastle: add the dependency "
                    + "org.bouncycastle:bcpkix-jdk18on, or supply cert-file and key-file");
        }
        return new GeneratedCertificate(properties.dnsNames(), properties.ipAddresses(), properties.validity(), time);
    }
}
