package dev.operatorstarter.autoconfigure.wiring;

import dev.operatorstarter.cache.InformerScope;
import dev.operatorstarter.sharding.Sharding;
import java.util.Objects;
import java.util.Optional;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.ObjectProvider;

/**
 * The reconcilers whose controllers are sharded, and the sharding they are members of; none
 * without {@code operator.sharding.enabled}. A sharded controller's primary and owned informers
 * cache this replica's share only; its watched ones stay whole.
 */
final class ShardedReconcilers {

    private static final ShardedReconcilers NONE = new ShardedReconcilers(null, null);

    private final @Nullable Sharding sharding;
    private final @Nullable ShardSettings settings;

    ShardedReconcilers(@Nullable Sharding sharding, @Nullable ShardSettings settings) {
        this.sharding = sharding;
        this.settings = settings;
    }

    /** The bean {@code provider} has, or none (sharding is off). */
    static ShardedReconcilers of(ObjectProvider<ShardedReconcilers> provider) {
        return provider.getIfAvailable(() -> NONE);
    }

    /** The sharding, when sharding is on. */
    /** The ring's settings, when sharding is on. */
    Optional<ShardSettings> settings() {
        return Optional.ofNullable(settings);
    }

    Optional<Sharding> sharding() {
        return Optional.ofNullable(sharding);
    }

    /** Whether {@code definition}'s controller is sharded. */
    boolean isSharded(ReconcilerDefinition definition) {
        return sharding != null && Objects.requireNonNull(settings).shards(definition.controllerName());
    }

    /** {@code scope} narrowed to this replica's share when {@code definition} is sharded; else {@code scope}. */
    InformerScope narrow(ReconcilerDefinition definition, InformerScope scope) {
        return isSharded(definition) ? Objects.requireNonNull(sharding).narrow(scope) : scope;
    }
}
