package dev.operatorstarter.sharding;

import static org.assertj.core.api.Assertions.assertThat;

import dev.operatorstarter.testing.FakeTimeSource;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What the assigner's backlog reports to the gauges: 0 from the start, then every change, then 0 at the term's end. */
class BacklogTest {

    private final List<String> reported = new ArrayList<>();
    private final FakeTimeSource time = new FakeTimeSource();
    private final Backlog backlog = new Backlog("ring", new ShardingMetrics() {
        @Override
        public void unassigned(String ring, String resource, int objects) {
            reported.add("unassigned " + resource + " " + objects);
        }

        @Override
        public void pendingDrains(String ring, int objects) {
            reported.add("pending " + objects);
        }

        @Override
        public void handedOver(String ring, Duration duration) {
            reported.add("handover " + duration.toMillis());
        }
    }, time);

    @Test
    void aTrackedResourceReadsZeroBeforeAnythingWaits() {
        backlog.track("widgets.example.dev");

        assertThat(reported).containsExactly("unassigned widgets.example.dev 0", "pending 0");
    }

    @Test
    void reportsEachChangeAndZeroWhenTheTermEnds() {
        backlog.track("widgets.example.dev");
        reported.clear();

        backlog.decided("widgets.example.dev", "ns/a", AssignmentStep.Outcome.WAITING_FOR_A_MEMBER);
        backlog.decided("widgets.example.dev", "ns/b", AssignmentStep.Outcome.DRAIN_REQUESTED);
        time.advance(Duration.ofMillis(300));
        backlog.decided("widgets.example.dev", "ns/b", AssignmentStep.Outcome.ASSIGNED);
        backlog.clear();

        assertThat(reported).containsExactly("pending 0", "unassigned widgets.example.dev 1", "pending 1",
                "handover 300", "pending 0", "pending 0", "unassigned widgets.example.dev 0");
    }
}
