/**
 * Sharding one controller's objects across replicas: consistent hashing over the live members of
 * a ring ({@link dev.operatorstarter.sharding.HashRing}), the labels that record which shard
 * holds an object ({@link dev.operatorstarter.sharding.ShardLabels}), and each replica's
 * {@link dev.operatorstarter.sharding.Membership} in the ring: a Lease of its own, campaigned for
 * by the unchanged leader elector, which taints the member for good once someone else took it;
 * and the {@link dev.operatorstarter.sharding.MemberState} the assigner judges each member in, on
 * its own clock from when it saw the member's Lease change. The assigner runs in each term of the
 * operator's leader: over metadata-only caches of every {@link dev.operatorstarter.sharding.ShardedResource}
 * it gives each object the shard the ring of READY members names, labelling its children first, asks
 * a live shard to drain an object the ring moves, and forces objects off members whose Lease was
 * released or taken; it takes a member's Lease once it went unrenewed for the lease duration.
 *
 * <p>The public face is {@link dev.operatorstarter.sharding.Sharding}, one replica's part in a ring:
 * built from {@link dev.operatorstarter.sharding.ShardingOptions}, it narrows a sharded controller's
 * informer scopes to the shard's token, registers each {@link dev.operatorstarter.sharding.ShardedResource}
 * with the assigner, decorates the controller (drain acknowledgements, the wait for moved-in
 * children), and reports a {@link dev.operatorstarter.sharding.RingStatus}; the manager runs its
 * lifecycle as a plugin ({@code ManagerBuilder.plugin}, {@code ManagedControllerBuilder.extendedBy}). The starter wires it when
 * {@code operator.sharding.enabled} is true ({@code OperatorShardingAutoConfiguration}).
 *
 * <p>Using it: {@code docs/sharding.md}; why it is built this way, and why no object is reconciled
 * by two replicas at once: {@code docs/design/sharding.md}.
 */
@NullMarked
package dev.operatorstarter.sharding;

import org.jspecify.annotations.NullMarked;
