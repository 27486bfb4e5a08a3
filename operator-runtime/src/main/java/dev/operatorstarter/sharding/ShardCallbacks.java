package dev.operatorstarter.sharding;

import dev.operatorstarter.leaderelection.LeaderCallbacks;
import dev.operatorstarter.leaderelection.Leadership;

/** The member elector's callbacks: the shard's controllers once started, and the member metric. */
final class ShardCallbacks implements LeaderCallbacks {
    private final ShardingOptions options;
    volatile LeaderCallbacks target = new LeaderCallbacks() {
        @Override
        public void onStartedLeading(Leadership leadership) {
        }
    };

    ShardCallbacks(ShardingOptions options) {
        this.options = options;
    }

    @Override
    public void onStartedLeading(Leadership leadership) {
        options.metrics().member(options.ring(), true);
        target.onStartedLeading(leadership);
    }

    @Override
    public void onStoppedLeading() {
        options.metrics().member(options.ring(), false);
        target.onStoppedLeading();
    }

    @Override
    public void onNewLeader(String identity) {
        target.onNewLeader(identity);
    }
}
