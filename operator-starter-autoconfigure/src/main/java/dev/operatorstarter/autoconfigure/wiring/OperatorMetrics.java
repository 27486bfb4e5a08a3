package dev.operatorstarter.autoconfigure.wiring;

import dev.operatorstarter.cache.ReaderMetrics;
import dev.operatorstarter.cache.ReflectorMetrics;
import dev.operatorstarter.client.rest.RequestMetrics;
import dev.operatorstarter.controller.ControllerMetrics;
import dev.operatorstarter.leaderelection.LeaderMetrics;
import dev.operatorstarter.sharding.ShardingMetrics;
import dev.operatorstarter.workqueue.WorkQueueMetrics;
import org.springframework.beans.factory.ObjectProvider;

/**
 * The runtime's metric sinks, one of each per application: Micrometer-backed when a
 * {@code MeterRegistry} is present and {@code operator.metrics.enabled} is true, else none.
 */
record OperatorMetrics(RequestMetrics requests, ReflectorMetrics reflectors, ReaderMetrics reads,
        ControllerMetrics controllers, WorkQueueMetrics queues, LeaderMetrics leaders, ShardingMetrics shards) {

    static OperatorMetrics none() {
        return new OperatorMetrics(RequestMetrics.NONE, ReflectorMetrics.NONE, ReaderMetrics.NONE,
                ControllerMetrics.NONE, WorkQueueMetrics.NONE, LeaderMetrics.NONE, ShardingMetrics.NONE);
    }

    /** The sinks {@code provider} has, or none (the metrics auto-configuration was excluded). */
    static OperatorMetrics of(ObjectProvider<OperatorMetrics> provider) {
        return provider.getIfAvailable(OperatorMetrics::none);
    }
}
