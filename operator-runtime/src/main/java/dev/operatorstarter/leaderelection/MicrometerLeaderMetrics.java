package dev.operatorstarter.leaderelection;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * {@code leader_election_master_status{name}}: 1 while this process leads the election
 * {@code name}, 0 otherwise (client-go's and controller-runtime's gauge). Needs micrometer-core.
 */
final class MicrometerLeaderMetrics implements LeaderMetrics {

    private final MeterRegistry registry;
    private final Map<String, AtomicInteger> status = new ConcurrentHashMap<>();

    MicrometerLeaderMetrics(MeterRegistry registry) {
        this.registry = registry;
    }

    @Override
    public void leading(String name, boolean leading) {
        status.computeIfAbsent(name, key -> {
            AtomicInteger value = new AtomicInteger();
            Gauge.builder("leader.election.master.status", value, AtomicInteger::get).strongReference(true)
                    .description("1 while this process is the leader of the election, 0 otherwise.")
                    .tag("name", key).register(registry);
            return value;
        }).set(leading ? 1 : 0);
    }
}
