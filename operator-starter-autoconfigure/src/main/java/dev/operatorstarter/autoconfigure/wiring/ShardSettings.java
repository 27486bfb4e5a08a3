package dev.operatorstarter.autoconfigure.wiring;

import dev.operatorstarter.autoconfigure.InvalidShardingException;
import dev.operatorstarter.autoconfigure.OperatorProperties;
import dev.operatorstarter.sharding.ShardLabels;
import java.security.SecureRandom;
import java.util.Collection;
import java.util.HexFormat;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.jspecify.annotations.Nullable;

/**
 * The ring this replica is a member of, after defaults, and which controllers are sharded.
 *
 * @param ring the ring's name, a DNS label
 * @param namespace the namespace of the member Leases
 * @param shardId this replica's member id, a DNS label, new for every process unless set
 * @param controllers the names of the sharded controllers; empty for every controller
 */
record ShardSettings(String ring, String namespace, String shardId, Set<String> controllers) {

    private static final int MAX_LABEL = 63;
    private static final SecureRandom RANDOM = new SecureRandom();

    ShardSettings {
        controllers = Set.copyOf(controllers);
    }

    /**
     * Applies the documented defaults of {@link OperatorProperties.Sharding}.
     *
     * @param lease the leader election's settings; null when leader election is off
     * @throws InvalidShardingException without leader election, or when the ring name or shard id
     *     is not a DNS label
     */
    static ShardSettings of(OperatorProperties.Sharding properties, @Nullable LeaseSettings lease,
            @Nullable String applicationName, Map<String, String> environment) {
        if (lease == null) {
            throw new InvalidShardingException("operator.leader-election.enabled is false, and sharding needs "
                    + "leader election: the elected replica assigns the objects to the members of the ring",
                    "Remove operator.leader-election.enabled=false");
        }
        String ring = blankToNull(properties.ringName());
        if (ring != null) {
            requireDnsLabel("operator.sharding.ring-name", ring);
        } else {
            ring = ringFrom(applicationName);
        }
        String shardId = blankToNull(properties.shardId());
        if (shardId != null) {
            requireDnsLabel("operator.sharding.shard-id", shardId);
        } else {
            byte[] random = new byte[3];
            RANDOM.nextBytes(random);
            shardId = ShardLabels.shardIdFor(LeaseSettings.hostName(environment), HexFormat.of().formatHex(random));
        }
        String namespace = blankToNull(properties.leaseNamespace());
        Set<String> controllers = new LinkedHashSet<>();
        properties.controllers().stream().map(String::strip).filter(name -> !name.isEmpty()).forEach(controllers::add);
        return new ShardSettings(ring, namespace != null ? namespace : lease.namespace(), shardId, controllers);
    }

    /** The member Lease, {@code namespace/name}. */
    String lease() {
        return namespace + "/" + ShardLabels.leaseName(ring, shardId);
    }

    /** Whether the controller named {@code controller} is sharded. */
    boolean shards(String controller) {
        return controllers.isEmpty() || controllers.contains(controller);
    }

    /**
     * @throws InvalidShardingException when {@code operator.sharding.controllers} names a controller
     *     that is not among {@code known}
     */
    void requireKnown(Collection<String> known) {
        for (String name : controllers) {
            if (!known.contains(name)) {
                throw new InvalidShardingException("operator.sharding.controllers names '" + name + "', which is not "
                        + "the name of a @Reconciler's controller", "Name one of " + new TreeSet<>(known)
                        + " (a controller's name is @Reconciler(name), else its kind in lower case)");
            }
        }
    }

    /** {@code spring.application.name} made a DNS label, else {@code operator}. */
    static String ringFrom(@Nullable String applicationName) {
        String name = ShardLabels.dnsLabelOf(applicationName == null ? "" : applicationName, MAX_LABEL);
        return name.isEmpty() ? "operator" : name;
    }

    private static void requireDnsLabel(String property, String value) {
        if (!ShardLabels.isDnsLabel(value)) {
            throw new InvalidShardingException(property + " is '" + value + "', which is not a DNS label",
                    "Use lower-case letters, digits and '-', starting and ending with a letter or digit, at most "
                            + MAX_LABEL + " characters");
        }
    }

    private static @Nullable String blankToNull(@Nullable String value) {
        return value == null || value.isBlank() ? null : value.strip();
    }

}
