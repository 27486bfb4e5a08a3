package dev.operatorstarter.controller;

import static org.assertj.core.api.Assertions.assertThat;

import dev.operatorstarter.client.ResourceType;
import dev.operatorstarter.controller.ReadYourWrites.Verdict;
import dev.operatorstarter.testing.FakeTimeSource;
import io.fabric8.kubernetes.api.model.ConfigMap;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** When a request may run while the cache lags this controller's last write, on a fake clock. */
class ReadYourWritesTest {

    private final FakeTimeSource time = new FakeTimeSource();
    private final WriteTracker writes = new WriteTracker(ResourceType.of(ConfigMap.class));
    private final ReadYourWrites rule = new ReadYourWrites(writes, Duration.ofSeconds(10), time);
    private final ReconcileRequest foo = new ReconcileRequest("ns", "foo");

    private Verdict cacheShows(String version) {
        return rule.check(foo, Optional.of(ControllerTest.configMap("foo", version)));
    }

    @Test
    void withoutAWriteEveryCachedCopyIsFresh() {
        assertThat(cacheShows("1")).isEqualTo(Verdict.FRESH);
        assertThat(rule.check(foo, Optional.empty())).isEqualTo(Verdict.FRESH);
    }

    @Test
    void anOlderCachedCopyWaitsUntilTheCacheCatchesUp() {
        writes.written(ControllerTest.configMap("foo", "10"));
        assertThat(cacheShows("9")).isEqualTo(Verdict.WAIT);
        time.advance(Duration.ofSeconds(9));
        assertThat(cacheShows("9")).isEqualTo(Verdict.WAIT);
        assertThat(cacheShows("10")).isEqualTo(Verdict.FRESH);
    }

    @Test
    void aCacheThatLagsForTheWholeTimeoutIsReconciledAnywayAndTheWaitStartsAfresh() {
        writes.written(ControllerTest.configMap("foo", "10"));
        assertThat(cacheShows("9")).isEqualTo(Verdict.WAIT);
        time.advance(Duration.ofSeconds(10));
        assertThat(cacheShows("9")).isEqualTo(Verdict.OVERDUE);
        assertThat(cacheShows("9")).as("a new wait begins").isEqualTo(Verdict.WAIT);
    }

    @Test
    void aDeletedObjectForgetsItsLastWrite() {
        writes.written(ControllerTest.configMap("foo", "10"));
        assertThat(cacheShows("9")).isEqualTo(Verdict.WAIT);
        rule.forget(foo);
        assertThat(cacheShows("9")).isEqualTo(Verdict.FRESH);
    }
}
