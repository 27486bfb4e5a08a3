package dev.operatorstarter.leaderelection;

import io.micrometer.core.instrument.MeterRegistry;

/**
 * Told when a candidate starts and stops leading ({@code leader_election_master_status} in
 * {@link #micrometer}). Must be fast and must not throw.
 */
public interface LeaderMetrics {

    LeaderMetrics NONE = (name, leading) -> { };

    /**
     * {@code leader_election_master_status{name}} on Micrometer: 1 while this process leads the
     * election {@code name}, 0 otherwise (client-go's and controller-runtime's gauge).
     * Needs {@code micrometer-core} on the class path (an optional dependency of the runtime) only
     * when called: the rest of this interface works without it.
     */
    static LeaderMetrics micrometer(MeterRegistry registry) {
        return new MicrometerLeaderMetrics(registry);
    }

    void leading(String name, boolean leading);
}
