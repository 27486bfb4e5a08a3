package dev.operatorstarter.client.rest;

import dev.operatorstarter.client.config.ClientCertificate;
import java.net.Socket;
import java.security.Principal;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.util.concurrent.atomic.AtomicReference;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.X509ExtendedKeyManager;
import org.jspecify.annotations.Nullable;

/**
 * The client certificate presented in TLS handshakes, replaceable while the client runs (an
 * exec plugin's certificate rotates). Connections opened before a rotation are evicted from the
 * pool (see {@link #rotatedAtMillis()}), so nothing keeps talking with the old identity, as
 * client-go closes its connections when a plugin's certificate changes.
 */
final class RotatingKeyManager extends X509ExtendedKeyManager {

    private static final String ALIAS = "client";

    private final AtomicReference<@Nullable ClientCertificate> current;
    private volatile long rotatedAtMillis = Long.MIN_VALUE;
    private volatile Runnable onRotation = () -> { };

    RotatingKeyManager(@Nullable ClientCertificate initial) {
        this.current = new AtomicReference<>(initial);
    }

    /** Presents {@code certificate} from the next handshake on; a different one counts as a rotation. */
    void use(ClientCertificate certificate) {
        ClientCertificate previous = current.getAndSet(certificate);
        if (previous != null && !previous.chain().get(0).equals(certificate.chain().get(0))) {
            rotatedAtMillis = System.currentTimeMillis();
            onRotation.run();
        }
    }

    /** Runs {@code action} after each rotation (the transport forgets resumable TLS sessions there). */
    void onRotation(Runnable action) {
        this.onRotation = action;
    }

    /** When the certificate last changed, in epoch millis; connections older than that are stale. */
    long rotatedAtMillis() {
        return rotatedAtMillis;
    }

    @Override
    public String @Nullable [] getClientAliases(String keyType, Principal @Nullable [] issuers) {
        return current.get() == null ? null : new String[] {ALIAS};
    }

    @Override
    public @Nullable String chooseClientAlias(String[] keyType, Principal @Nullable [] issuers, @Nullable Socket socket) {
        return current.get() == null ? null : ALIAS;
    }

    @Override
    public @Nullable String chooseEngineClientAlias(String[] keyType, Principal @Nullable [] issuers,
            @Nullable SSLEngine engine) {
        return current.get() == null ? null : ALIAS;
    }

    @Override
    public X509Certificate @Nullable [] getCertificateChain(String alias) {
        ClientCertificate certificate = current.get();
        return certificate == null ? null : certificate.chain().toArray(X509Certificate[]::new);
    }

    @Override
    public @Nullable PrivateKey getPrivateKey(String alias) {
        ClientCertificate certificate = current.get();
        return certificate == null ? null : certificate.key();
    }

    @Override
    public String @Nullable [] getServerAliases(String keyType, Principal @Nullable [] issuers) {
        return null;
    }

    @Override
    public @Nullable String chooseServerAlias(String keyType, Principal @Nullable [] issuers, @Nullable Socket socket) {
        return null;
    }
}
