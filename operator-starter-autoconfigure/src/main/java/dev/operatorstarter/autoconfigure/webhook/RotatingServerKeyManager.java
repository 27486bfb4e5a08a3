package dev.operatorstarter.autoconfigure.webhook;

import java.net.Socket;
import java.security.Principal;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicReference;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.X509ExtendedKeyManager;
import org.jspecify.annotations.Nullable;

/**
 * The serving certificate the TLS handshakes of the webhook server present, replaceable while the
 * server runs: each handshake reads the current one, so a rotated certificate is served from the
 * next connection on without rebinding the port. Connections already open keep the certificate
 * they started with until they close. The alias names the certificate's generation, so a handshake
 * that asks for the chain and then the key during a swap still gets a matching pair.
 */
final class RotatingServerKeyManager extends X509ExtendedKeyManager {

    private static final String ALIAS = "webhook-";

    /** A key and the one it replaced (kept for handshakes that chose it just before the swap). */
    private record Generation(long number, ServingKey key, @Nullable ServingKey previous) {
    }

    private final AtomicReference<Generation> current;

    RotatingServerKeyManager(ServingKey initial) {
        this.current = new AtomicReference<>(new Generation(1, Objects.requireNonNull(initial, "initial"), null));
    }

    ServingKey current() {
        return current.get().key();
    }

    void use(ServingKey key) {
        Objects.requireNonNull(key, "key");
        current.updateAndGet(generation -> new Generation(generation.number() + 1, key, generation.key()));
    }

    private @Nullable ServingKey key(String alias) {
        Generation generation = current.get();
        if (alias.equals(ALIAS + generation.number())) {
            return generation.key();
        }
        return alias.equals(ALIAS + (generation.number() - 1)) ? generation.previous() : null;
    }

    /**
     * The alias when the handshake can use our key: the JDK asks per key type ({@code EC},
     * {@code RSA}, {@code EC_EC} in TLS 1.2...), and a key of another type would fail it.
     */
    private @Nullable String alias(@Nullable String keyType) {
        Generation generation = current.get();
        String algorithm = generation.key().key().getAlgorithm();
        if (keyType == null || keyType.equals(algorithm) || keyType.startsWith(algorithm + "_")
                || ("EdDSA".equals(keyType) && algorithm.startsWith("Ed"))) {
            return ALIAS + generation.number();
        }
        return null;
    }

    @Override
    public @Nullable String chooseEngineServerAlias(String keyType, Principal @Nullable [] issuers,
            @Nullable SSLEngine engine) {
        return alias(keyType);
    }

    @Override
    public @Nullable String chooseServerAlias(String keyType, Principal @Nullable [] issuers, @Nullable Socket socket) {
        return alias(keyType);
    }

    @Override
    public String @Nullable [] getServerAliases(String keyType, Principal @Nullable [] issuers) {
        String alias = alias(keyType);
        return alias == null ? null : new String[] {alias};
    }

    @Override
    public X509Certificate @Nullable [] getCertificateChain(String alias) {
        ServingKey key = key(alias);
        return key == null ? null : key.chain().toArray(X509Certificate[]::new);
    }

    @Override
    public @Nullable PrivateKey getPrivateKey(String alias) {
        ServingKey key = key(alias);
        return key == null ? null : key.key();
    }

    @Override
    public String @Nullable [] getClientAliases(String keyType, Principal @Nullable [] issuers) {
        return null;
    }

    @Override
    public @Nullable String chooseClientAlias(String[] keyType, Principal @Nullable [] issuers, @Nullable Socket socket) {
        return null;
    }
}
