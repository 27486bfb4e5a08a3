package dev.operatorstarter.sharding;

import static org.assertj.core.api.Assertions.assertThat;

import dev.operatorstarter.sharding.ArrivalCheck.Verdict;
import dev.operatorstarter.testing.FakeTimeSource;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A moved-in object waits for its children, once per arrival, and no longer than the timeout. */
class ArrivalCheckTest {

    private final FakeTimeSource time = new FakeTimeSource();
    private final ArrivalCheck check = new ArrivalCheck(Duration.ofSeconds(10), time);
    private final Map<String, Integer> held = new HashMap<>();

    @Test
    void anObjectWithoutAnArrivalGoesAtOnce() {
        assertThat(check.check("ns/a", null, this::held)).isEqualTo(Verdict.GO);
        assertThat(check.check("ns/a", " ", this::held)).isEqualTo(Verdict.GO);
    }

    @Test
    void itWaitsUntilTheCachesHoldEveryAnnouncedChildThenNeverChecksThatArrivalAgain() {
        String arrival = "configmaps=2,deployments.apps=1";
        held.put("configmaps", 2);
        assertThat(check.check("ns/a", arrival, this::held)).isEqualTo(Verdict.WAIT);
        held.put("deployments.apps", 1);
        assertThat(check.check("ns/a", arrival, this::held)).isEqualTo(Verdict.GO);

        held.clear();
        assertThat(check.check("ns/a", arrival, this::held)).as("passed once: a child deleted later is the reconciler's")
                .isEqualTo(Verdict.GO);
        assertThat(check.check("ns/a", "configmaps=3", this::held)).as("a new move is checked anew")
                .isEqualTo(Verdict.WAIT);
    }

    @Test
    void anArrivalThatDoesNotCompleteWithinTheTimeoutPassesOnceAsOverdue() {
        String arrival = "configmaps=1";
        assertThat(check.check("ns/a", arrival, this::held)).isEqualTo(Verdict.WAIT);
        time.advance(Duration.ofSeconds(9));
        assertThat(check.check("ns/a", arrival, this::held)).isEqualTo(Verdict.WAIT);
        time.advance(Duration.ofSeconds(1));
        assertThat(check.check("ns/a", arrival, this::held)).isEqualTo(Verdict.OVERDUE);
        assertThat(check.check("ns/a", arrival, this::held)).isEqualTo(Verdict.GO);
    }

    @Test
    void aForgottenObjectIsCheckedAgainAndMalformedEntriesWaitForNothing() {
        held.put("configmaps", 1);
        assertThat(check.check("ns/a", "configmaps=1", this::held)).isEqualTo(Verdict.GO);
        check.forget("ns/a");
        held.clear();
        assertThat(check.check("ns/a", "configmaps=1", this::held)).isEqualTo(Verdict.WAIT);
        assertThat(check.check("ns/b", "configmaps,=2,services=x", this::held)).isEqualTo(Verdict.GO);
    }

    @Test
    void anObjectGoneFromTheCacheIsForgottenOnceTheTtlPassedOneStillThereIsNot() {
        held.put("configmaps", 1);
        check.check("ns/gone", "configmaps=1", this::held);
        check.check("ns/here", "configmaps=1", this::held);
        check.check("ns/waiting", "configmaps=2", this::held);
        Duration ttl = Duration.ofMinutes(20);

        check.expire(ttl, key -> !key.equals("ns/here"));
        assertThat(check.size()).as("not before the TTL").isEqualTo(3);
        time.advance(ttl);
        check.expire(ttl, key -> !key.equals("ns/here"));

        assertThat(check.size()).isEqualTo(1);
        held.clear();
        assertThat(check.check("ns/here", "configmaps=1", this::held)).as("still passed").isEqualTo(Verdict.GO);
    }

    private int held(String resource) {
        return held.getOrDefault(resource, 0);
    }
}
