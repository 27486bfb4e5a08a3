package dev.operatorstarter.sharding;

import dev.operatorstarter.leaderelection.LeaderCallbacks;
import dev.operatorstarter.manager.MemberTerms;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The terms of a replica's member Lease as the manager's member terms: the manager starts the
 * campaign once the caches synced, and ends it after the member group stopped, releasing the Lease
 * only when every reconcile of the shard finished (else leaving it to expire).
 */
record MemberTermsOfRing(Sharding sharding) implements MemberTerms {

    private static final Logger log = LoggerFactory.getLogger(Sharding.class);

    @Override
    public void start(LeaderCallbacks terms) {
        sharding.start(terms);
    }

    @Override
    public void end(boolean drained) {
        if (drained) {
            sharding.close();
        } else {
            log.warn("Some reconciles of the shard's controllers did not finish in time: leaving member lease {} to "
                    + "expire instead of releasing it", sharding.membership().lease());
            sharding.abandon();
        }
    }
}
