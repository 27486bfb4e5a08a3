package dev.operatorstarter.autoconfigure;

import dev.operatorstarter.sharding.ShardingOptions;

/**
 * Customizes the operator's sharding (for example its thread factory, or a time source in tests)
 * after the {@code operator.sharding.*} and {@code operator.leader-election.*} properties were
 * applied. The ring's name, this replica's shard id and the Lease namespace are the properties'.
 */
@FunctionalInterface
public interface ShardingCustomizer {

    void customize(ShardingOptions.Builder options);
}
