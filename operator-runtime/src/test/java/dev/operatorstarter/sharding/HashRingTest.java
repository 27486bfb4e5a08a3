package dev.operatorstarter.sharding;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** Consistent hashing: who owns a key, what moves when members come and go, and how even the shares are. */
class HashRingTest {

    private static final List<String> KEYS = IntStream.range(0, 30_000).mapToObj(i -> "ns-" + (i % 7) + "/site-" + i)
            .toList();

    @Test
    void positionsAreTheFirstEightBytesOfTheSha256BigEndian() {
        assertThat(HashRing.position("a")).isEqualTo(0xca978112ca1bbdcaL);
        assertThat(HashRing.position("ns/site")).isEqualTo(0xa1e93be0f786d375L);
        assertThat(HashRing.position("replica-1#0")).as("a member's first token").isEqualTo(0xf64a33050dd13e78L);
    }

    @Test
    void aKeyBelongsToTheMemberOfTheFirstTokenAtOrAfterItsPositionWrappingRound() {
        HashRing ring = HashRing.of(List.of("replica-1", "replica-2", "replica-3"), 5);
        for (String key : KEYS.subList(0, 2_000)) {
            assertThat(ring.ownerOf(key)).as(key).hasValue(bruteForceOwner(ring.members(), 5, key));
        }
    }

    @Test
    void everyProcessComputesTheSameOwnerWhateverTheOrderItLearntTheMembersIn() {
        HashRing one = HashRing.of(List.of("a", "b", "c"), 100);
        HashRing other = HashRing.of(List.of("c", "a", "b", "a"), 100);
        assertThat(other.members()).containsExactly("a", "b", "c");
        assertThat(KEYS).allSatisfy(key -> assertThat(other.ownerOf(key)).isEqualTo(one.ownerOf(key)));
    }

    @Test
    void addingAMemberMovesKeysOnlyToItAndAboutItsShare() {
        HashRing three = HashRing.of(List.of("replica-1", "replica-2", "replica-3"), 100);
        HashRing four = HashRing.of(List.of("replica-1", "replica-2", "replica-3", "replica-4"), 100);

        int moved = 0;
        for (String key : KEYS) {
            String before = three.ownerOf(key).orElseThrow();
            String after = four.ownerOf(key).orElseThrow();
            if (!before.equals(after)) {
                assertThat(after).as("a key that moves goes to the new member").isEqualTo("replica-4");
                moved++;
            }
        }
        assertThat(moved / (double) KEYS.size()).as("about a quarter moves").isBetween(0.18, 0.32);
    }

    @Test
    void removingAMemberMovesOnlyItsKeys() {
        HashRing three = HashRing.of(List.of("replica-1", "replica-2", "replica-3"), 100);
        HashRing two = HashRing.of(List.of("replica-1", "replica-3"), 100);

        for (String key : KEYS) {
            String before = three.ownerOf(key).orElseThrow();
            if (!before.equals("replica-2")) {
                assertThat(two.ownerOf(key)).as(key).hasValue(before);
            }
        }
    }

    @Test
    void withAHundredVirtualNodesThreeMembersEachOwnAboutAThird() {
        HashRing ring = HashRing.of(List.of("replica-1", "replica-2", "replica-3"), 100);
        Map<String, Integer> shares = new HashMap<>();
        KEYS.forEach(key -> shares.merge(ring.ownerOf(key).orElseThrow(), 1, Integer::sum));

        assertThat(shares).hasSize(3);
        assertThat(shares.values()).allSatisfy(share -> assertThat(share / (double) KEYS.size()).isBetween(0.27, 0.40));
    }

    @Test
    void anEmptyRingOwnsNothingAndBadArgumentsAreNamed() {
        assertThat(HashRing.of(List.of(), 100).ownerOf("ns/site")).isEmpty();
        assertThat(HashRing.of(List.of("only"), 1).ownerOf("ns/site")).hasValue("only");
        assertThatThrownBy(() -> HashRing.of(List.of("a"), 0)).hasMessageContaining("virtualNodes must be 1 to 1000, was 0");
        assertThatThrownBy(() -> HashRing.of(List.of("a", " "), 10)).hasMessageContaining("must not be blank");
    }

    /** The owner by the definition: the smallest token position at or after the key's, else the smallest of all. */
    private static String bruteForceOwner(Set<String> members, int virtualNodes, String key) {
        long position = HashRing.position(key);
        String best = null;
        long bestPosition = 0;
        String lowest = null;
        long lowestPosition = 0;
        for (String member : members) {
            for (int i = 0; i < virtualNodes; i++) {
                long token = HashRing.position(member + "#" + i);
                if (lowest == null || Long.compareUnsigned(token, lowestPosition) < 0) {
                    lowest = member;
                    lowestPosition = token;
                }
                if (Long.compareUnsigned(token, position) >= 0
                        && (best == null || Long.compareUnsigned(token, bestPosition) < 0)) {
                    best = member;
                    bestPosition = token;
                }
            }
        }
        return best != null ? best : lowest;
    }
}
