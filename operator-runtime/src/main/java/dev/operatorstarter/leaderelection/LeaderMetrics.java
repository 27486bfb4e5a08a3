package dev.operatorstarter.leaderelection;

/**
 * Told when a candidate starts and stops leading ({@code leader_election_master_status} in
 * {@link MicrometerLeaderMetrics}). Must be fast and must not throw.
 */
public interface LeaderMetrics {

    LeaderMetrics NONE = (name, leading) -> { };

    void leading(String name, boolean leading);
}
