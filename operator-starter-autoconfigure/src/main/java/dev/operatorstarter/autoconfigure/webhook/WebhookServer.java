package dev.operatorstarter.autoconfigure.webhook;

import java.time.Instant;
import java.util.List;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * The HTTPS server the API server calls with admission and conversion reviews, on its own port
 * ({@code operator.webhook.port}), independent of the application's web server. It starts with
 * the application context, before the informers (a conversion webhook must answer before the
 * operator's own reads of a converted kind), and stops after them.
 *
 * <p>Thread-safe; the accessors may be called at any time.
 */
public interface WebhookServer {

    /** The port listened on (the bound one when {@code operator.webhook.port=0}); -1 when stopped. */
    int port();

    /** The paths served, each an {@code @AdmissionWebhook} or {@code @ConversionWebhook} path. */
    Set<String> paths();

    /**
     * The CA certificate (PEM) that clients must trust to call this server: the generated CA, or
     * the contents of {@code operator.webhook.certificate.ca-file}; null when neither is known
     * (supplied files without a CA file) or before the first start.
     */
    @Nullable String caCertificatePem();

    /** What the server is doing now, as the {@code webhooks} health indicator shows it. */
    Status status();

    /**
     * The server's state.
     *
     * @param running whether it listens
     * @param port the port, -1 when stopped
     * @param paths the paths served
     * @param certificate where the certificate comes from (files or generated)
     * @param certificateNotAfter when the served certificate expires; null before the first start
     * @param certificateProblem why the certificate files could not be read again, while the last
     *     good certificate is still served; null when there is none
     * @param certificateRotation a certificate with a new CA that waits to be served until its CA
     *     is in every named {@code caBundle} (and what is still missing there), or why one is served
     *     before that (the one it replaces expired first); null when there is none
     * @param caInjectionPending what the caBundle injection still has to do for the CA served (objects
     *     missing, writes refused); empty when done or not configured
     */
    record Status(boolean running, int port, List<String> paths, String certificate,
            @Nullable Instant certificateNotAfter, @Nullable String certificateProblem,
            @Nullable String certificateRotation, List<String> caInjectionPending) {

        public Status {
            paths = List.copyOf(paths);
            caInjectionPending = List.copyOf(caInjectionPending);
        }

        /**
         * Ready for the API server: listening, a certificate that has not expired at {@code now},
         * and nothing left to inject (the API server cannot trust the server before).
         */
        public boolean ready(Instant now) {
            return running && certificateNotAfter != null && now.isBefore(certificateNotAfter)
                    && caInjectionPending.isEmpty();
        }
    }
}
