/**
 * Sharding one controller's objects across replicas: consistent hashing over the live members of
 * a ring ({@link dev.operatorstarter.sharding.HashRing}), and the labels that record which shard
 * holds an object ({@link dev.operatorstarter.sharding.ShardLabels}). Being built for issue 21;
 * the plan is {@code docs/design/sharding-plan.md}.
 */
@NullMarked
package dev.operatorstarter.sharding;

import org.jspecify.annotations.NullMarked;
