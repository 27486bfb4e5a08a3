package dev.operatorstarter.sharding;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.Collection;
import java.util.Collections;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * Consistent hashing with virtual nodes: which member of a ring owns a key. Each member places
 * {@code virtualNodes} tokens on a ring of 64-bit positions, and a key belongs to the member of the
 * first token at or after the key's position, wrapping round. Adding a member moves to it only
 * the keys that now fall before one of its tokens (about a {@code 1/(n+1)} share); removing one
 * moves only its own keys; nothing else moves.
 *
 * <p>Positions are the first 8 bytes (big-endian, as an unsigned number) of the SHA-256 of the
 * text: {@code "<member>#<i>"} for the {@code i}-th token of a member ({@code i} from 0), the key
 * itself for a key. So every process that knows the same members computes the same owner, whatever
 * its JVM or the order it learnt the members in. Two tokens on one position (astronomically rare)
 * go to the member whose id sorts first.
 *
 * <p>Immutable and thread-safe; {@link #ownerOf} is a binary search.
 */
public final class HashRing {

    private static final int MAX_VIRTUAL_NODES = 1000;

    private final Set<String> members;
    private final long[] positions; // sorted, as unsigned
    private final String[] owners; // owners[i] holds positions[i]

    private HashRing(Set<String> members, long[] positions, String[] owners) {
        this.members = members;
        this.positions = positions;
        this.owners = owners;
    }

    /**
     * A ring of {@code members}, each with {@code virtualNodes} tokens.
     *
     * @throws IllegalArgumentException when {@code virtualNodes} is not 1 to 1000, or a member id is blank
     */
    public static HashRing of(Collection<String> members, int virtualNodes) {
        if (virtualNodes < 1 || virtualNodes > MAX_VIRTUAL_NODES) {
            throw new IllegalArgumentException("virtualNodes must be 1 to " + MAX_VIRTUAL_NODES + ", was " + virtualNodes);
        }
        Set<String> sorted = new TreeSet<>();
        for (String member : members) {
            if (member == null || member.isBlank()) {
                throw new IllegalArgumentException("a ring member's id must not be blank: " + members);
            }
            sorted.add(member);
        }
        Token[] tokens = new Token[sorted.size() * virtualNodes];
        int next = 0;
        for (String member : sorted) {
            for (int i = 0; i < virtualNodes; i++) {
                tokens[next++] = new Token(position(member + "#" + i), member);
            }
        }
        Arrays.sort(tokens, (a, b) -> {
            int byPosition = Long.compareUnsigned(a.position, b.position);
            return byPosition != 0 ? byPosition : a.member.compareTo(b.member);
        });
        long[] positions = new long[tokens.length];
        String[] owners = new String[tokens.length];
        for (int i = 0; i < tokens.length; i++) {
            positions[i] = tokens[i].position;
            owners[i] = tokens[i].member;
        }
        return new HashRing(Collections.unmodifiableSet(sorted), positions, owners);
    }

    /** The member that owns {@code key}; empty when the ring has no members. */
    public Optional<String> ownerOf(String key) {
        if (positions.length == 0) {
            return Optional.empty();
        }
        long position = position(key);
        int low = 0;
        int high = positions.length; // the first index whose position is >= the key's, in [low, high]
        while (low < high) {
            int middle = (low + high) >>> 1;
            if (Long.compareUnsigned(positions[middle], position) < 0) {
                low = middle + 1;
            } else {
                high = middle;
            }
        }
        return Optional.of(owners[low == positions.length ? 0 : low]);
    }

    /** The members, sorted. */
    public Set<String> members() {
        return members;
    }

    /** The position of {@code text} on the ring: the first 8 bytes of its SHA-256, big-endian. */
    static long position(String text) {
        byte[] digest = sha256().digest(text.getBytes(StandardCharsets.UTF_8));
        long position = 0;
        for (int i = 0; i < Long.BYTES; i++) {
            position = (position << 8) | (digest[i] & 0xff);
        }
        return position;
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JVM has SHA-256", e);
        }
    }

    @Override
    public String toString() {
        return "HashRing" + members + " (" + (members.isEmpty() ? 0 : positions.length / members.size())
                + " virtual nodes each)";
    }

    private record Token(long position, String member) {
    }
}
