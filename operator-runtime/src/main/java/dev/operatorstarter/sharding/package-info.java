/**
 * Sharding one controller's objects across replicas: consistent hashing over the live members of
 * a ring ({@link dev.operatorstarter.sharding.HashRing}), the labels that record which shard
 * holds an object ({@link dev.operatorstarter.sharding.ShardLabels}), and each replica's
 * {@link dev.operatorstarter.sharding.Membership} in the ring: a Lease of its own, campaigned for
 * by the unchanged leader elector, which taints the member for good once someone else took it;
 * and the {@link dev.operatorstarter.sharding.MemberState} the assigner judges each member in, on
 * its own clock from when it saw the member's Lease change.
 * Being built for issue 21; the plan is {@code docs/design/sharding-plan.md}.
 */
@NullMarked
package dev.operatorstarter.sharding;

import org.jspecify.annotations.NullMarked;
