package dev.operatorstarter.sharding;

import dev.operatorstarter.leaderelection.LeaderCallbacks;
import dev.operatorstarter.leaderelection.Leadership;
import dev.operatorstarter.manager.ManagedRunnable;
import java.time.Duration;

/** The ring's assigner as a runnable of the leader's terms: started in each term, stopped at its end. */
record AssignerRunnable(LeaderCallbacks assigner, String ring) implements ManagedRunnable {

    @Override
    public String name() {
        return "assigner of ring " + ring;
    }

    @Override
    public void start(Leadership term) {
        assigner.onStartedLeading(term);
    }

    @Override
    public boolean stop(Duration drain) {
        assigner.onStoppedLeading();
        return true;
    }
}
