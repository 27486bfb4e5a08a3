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
 *
 * <p>A key may be {@linkplain #stage staged}: known, not served. The server stages a certificate
 * whose CA the API server does not trust yet, keeps serving the current one while it injects that
 * CA, and {@linkplain #promote promotes} the staged key once the CA is everywhere.
 */
final class RotatingServerKeyManager extends X509ExtendedKeyManager {

    private static final String ALIAS = "webhook-";

    /**
     * A key, the one it replaced (kept for handshakes that chose it just before the swap) and the
     * one waiting to replace it.
     */
    private record Generation(long number, ServingKey key, @Nullable ServingKey previous, @Nullable ServingKey staged) {
    }

    private final AtomicReference<Generation> current;

    RotatingServerKeyManager(ServingKey initial) {
        this.current = new AtomicReference<>(new Generation(1, Objects.requireNonNull(initial, "initial"), null, null));
    }

    /** The key served. */
    ServingKey current() {
        return current.get().key();
    }

    /** The key waiting to be served; null when none. */
    @Nullable ServingKey staged() {
        return current.get().staged();
    }

    /** Serves {@code key} from the next handshake on; a staged key is forgotten. */
    void use(ServingKey key) {
        Objects.requireNonNull(key, "key");
        current.updateAndGet(generation -> new Generation(generation.number() + 1, key, generation.key(), null));
    }

    /** Keeps {@code key} (replacing a key staged before) without serving it; null forgets the staged key. */
    void stage(@Nullable ServingKey key) {
        current.updateAndGet(generation -> new Generation(generation.number(), generation.key(), generation.previous(),
                key));
    }

    /** Serves the staged key, if there is one; returns it. */
    @Nullable ServingKey promote() {
        Generation before = current.getAndUpdate(generation -> generation.staged() == null ? generation
                : new Generation(generation.number() + 1, generation.staged(), generation.key(), null));
        return before.staged();
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
