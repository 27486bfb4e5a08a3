package dev.operatorstarter.client.rest;

import dev.operatorstarter.client.config.ClientCertificate;
import dev.operatorstarter.time.TimeSource;
import java.net.Socket;
import java.security.Principal;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.X509ExtendedKeyManager;
import org.jspecify.annotations.Nullable;

/**
 * The client certificate presented in TLS handshakes, replaceable while the client runs (an
 * exec plugin's certificate rotates). Connections opened before a rotation are evicted from the
 * pool (see {@link #openedBeforeRotation}), so nothing keeps talking with the old identity, as
 * client-go closes its connections when a plugin's certificate changes.
 */
final class RotatingKeyManager extends X509ExtendedKeyManager {

    private static final String ALIAS = "client";

    private final AtomicReference<@Nullable ClientCertificate> current;
    private final TimeSource time;
    private volatile boolean rotated;
    private volatile long rotatedAtNanos;
    private volatile Runnable onRotation = () -> { };

    RotatingKeyManager(@Nullable ClientCertificate initial, TimeSource time) {
        this.current = new AtomicReference<>(initial);
        this.time = time;
    }

    /** Presents {@code certificate} from the next handshake on; a different one counts as a rotation. */
    void use(ClientCertificate certificate) {
        ClientCertificate previous = current.getAndSet(certificate);
        if (previous != null && !previous.chain().get(0).equals(certificate.chain().get(0))) {
            rotatedAtNanos = time.nanoTime();
            rotated = true;
            onRotation.run();
        }
    }

    /** Runs {@code action} after each rotation (the transport forgets resumable TLS sessions there). */
    void onRotation(Runnable action) {
        this.onRotation = action;
    }

    /**
     * True when a connection {@code age} old (as the pool counts it, in whole milliseconds) was
     * opened before the certificate last changed: it still presents the old identity and is
     * stale. Within the pool's millisecond it counts as stale: evicting a new connection costs a
     * reconnect, keeping an old one the wrong identity.
     */
    boolean openedBeforeRotation(Duration age) {
        return rotated && time.nanoTime() - TimeSource.saturatedNanos(age.plusMillis(1)) - rotatedAtNanos <= 0;
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
