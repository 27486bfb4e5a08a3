package dev.operatorstarter.sharding;

import dev.operatorstarter.controller.OwnerReferences;
import java.util.Locale;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * The label and annotation keys of one ring, and one shard's label selector. The assigner writes
 * {@code shard.sharding.operatorstarter.dev/<ring>=<shardId>} on every object it assigns (the
 * token), {@code drain.sharding.operatorstarter.dev/<ring>=true} when an object must leave its
 * shard, and the annotation {@code arrival.sharding.operatorstarter.dev/<ring>} with the children
 * moved along with it; each shard's informers select {@code <token>=<shardId>}.
 *
 * @param ring the ring's name: a DNS label (lower-case letters, digits and {@code -}, at most 63),
 *        so that it fits as a label key's name and a Lease name's prefix
 * @param shardId this member's id, a DNS label too (it is a label value and part of a Lease name)
 */
public record ShardLabels(String ring, String shardId) {

    /** The domain of every key the sharding writes. */
    public static final String DOMAIN = "sharding.operatorstarter.dev";
    /** The label on member Leases naming their ring. */
    public static final String RING_LABEL = DOMAIN + "/ring";
    /** The label on member Leases naming their member, which stays when the Lease is taken. */
    public static final String SHARD_LABEL = DOMAIN + "/shard";
    /**
     * The label the assigner writes on member Leases for people to read ({@code kubectl get lease
     * -L sharding.operatorstarter.dev/state}): {@code dead} once it took the Lease. Never judged.
     */
    public static final String STATE_LABEL = DOMAIN + "/state";

    private static final Pattern DNS_LABEL = Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?");
    private static final int MAX_LABEL = 63;
    /** Room left in a shard id for {@code -} and the random suffix. */
    private static final int MAX_HOST_PART = 56;

    public ShardLabels {
        check("ring", ring);
        check("shardId", shardId);
    }

    /**
     * The assignment label's key: {@code shard.sharding.operatorstarter.dev/<ring>}, under the
     * prefix {@link OwnerReferences#setController} copies from an owner to what it owns.
     */
    public String token() {
        return OwnerReferences.SHARD_LABEL_PREFIX + ring;
    }

    /** The drain label's key: {@code drain.sharding.operatorstarter.dev/<ring>}. */
    public String drain() {
        return "drain." + DOMAIN + "/" + ring;
    }

    /** The arrival annotation's key: {@code arrival.sharding.operatorstarter.dev/<ring>}. */
    public String arrival() {
        return "arrival." + DOMAIN + "/" + ring;
    }

    /** This shard's label selector, {@code <token>=<shardId>}. */
    public String selector() {
        return token() + "=" + shardId;
    }

    /**
     * The name of a member's Lease: {@code <ring>-<shardId>}; at most 127 characters, both being
     * DNS labels (well within a Lease name's 253).
     */
    public static String leaseName(String ring, String shardId) {
        return ring + "-" + shardId;
    }

    /**
     * A shard id for this process: {@code hostName} made a DNS label (lower case, other
     * characters as {@code -}, at most 56), {@code -}, then {@code randomHex}. A new id per process,
     * so a restarted pod is a new member, and its informers never see what an earlier process of
     * the same pod was given.
     *
     * @param hostName the pod's name (its {@code HOSTNAME}); blank gives {@code shard}
     * @param randomHex a few random hexadecimal digits
     */
    public static String shardIdFor(String hostName, String randomHex) {
        Objects.requireNonNull(randomHex, "randomHex");
        String host = dnsLabelOf(hostName == null ? "" : hostName, MAX_HOST_PART);
        String id = (host.isEmpty() ? "shard" : host) + "-" + randomHex.toLowerCase(Locale.ROOT);
        check("shardId (generated from the host name)", id);
        return id;
    }

    /**
     * {@code value} made a DNS label: lower case, every other character as {@code -}, cut to
     * {@code maxLength}, without {@code -} at either end; empty when nothing is left.
     */
    public static String dnsLabelOf(String value, int maxLength) {
        String label = value.toLowerCase(Locale.ROOT).replaceAll("[^-a-z0-9]", "-");
        if (label.length() > maxLength) {
            label = label.substring(0, maxLength);
        }
        return label.replaceAll("^-+", "").replaceAll("-+$", "");
    }

    /** Whether {@code value} is a DNS label (RFC 1123): what a ring's name and a shard id must be. */
    public static boolean isDnsLabel(String value) {
        return value != null && value.length() <= MAX_LABEL && DNS_LABEL.matcher(value).matches();
    }

    /** Refuses {@code value} unless it is a DNS label; the message names the field (the starter names its property). */
    private static void check(String field, String value) {
        if (!isDnsLabel(value)) {
            throw new IllegalArgumentException(field + " must be a DNS label (lower-case letters, digits and '-', "
                    + "starting and ending with a letter or digit, at most " + MAX_LABEL + " characters), was '"
                    + value + "'");
        }
    }
}
