package dev.operatorstarter.event;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.operatorstarter.testing.FakeTimeSource;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Aggregation, spam filtering and never blocking, on an in-memory sink and a fake time source. */
class EventBroadcasterTest {

    /** Keeps what would have been written. */
    static class MemorySink implements EventSink {
        final List<Occurrence> created = new CopyOnWriteArrayList<>();
        final Map<String, Integer> counts = new ConcurrentHashMap<>();
        final AtomicInteger names = new AtomicInteger();

        @Override
        public String create(Occurrence occurrence) {
            created.add(occurrence);
            String name = occurrence.regarding().getName() + "." + names.incrementAndGet();
            counts.put(name, 1);
            return name;
        }

        @Override
        public void updateSeries(String namespace, String name, int count, Instant lastObserved) {
            counts.put(name, count);
        }
    }

    private final FakeTimeSource time = new FakeTimeSource();
    private final MemorySink sink = new MemorySink();
    private EventBroadcaster broadcaster;

    private EventRecorder start(EventSink target, EventOptions.Builder options) {
        broadcaster = new EventBroadcaster(target, options.timeSource(time).reportingInstance("pod-1").build());
        broadcaster.start();
        return broadcaster.recorder("example.com/test");
    }

    @AfterEach
    void close() {
        if (broadcaster != null) {
            broadcaster.close();
        }
    }

    private static ConfigMap object(String name) {
        return new ConfigMapBuilder().withNewMetadata().withNamespace("ns").withName(name).withUid("uid-" + name)
                .endMetadata().build();
    }

    @Test
    void aHundredIdenticalEventsBecomeOneEventWithASeriesOfAHundred() {
        EventRecorder recorder = start(sink, EventOptions.builder());
        for (int i = 0; i < 100; i++) {
            recorder.event(object("a"), EventType.WARNING, "SyncFailed", "Sync", "attempt " + i);
        }
        broadcaster.close();
        assertThat(sink.created).singleElement().satisfies(event -> {
            assertThat(event.reason()).isEqualTo("SyncFailed");
            assertThat(event.reportingController()).isEqualTo("example.com/test");
            assertThat(event.reportingInstance()).isEqualTo("pod-1");
        });
        assertThat(sink.counts).containsExactly(Map.entry("a.1", 100));
    }

    @Test
    void differentReasonsActionsTypesOrObjectsAreDifferentEvents() {
        EventRecorder recorder = start(sink, EventOptions.builder());
        recorder.event(object("a"), EventType.NORMAL, "Created", "Create", "");
        recorder.event(object("a"), EventType.NORMAL, "Updated", "Update", "");
        recorder.event(object("a"), EventType.WARNING, "Created", "Create", "");
        recorder.event(object("b"), EventType.NORMAL, "Created", "Create", "");
        broadcaster.close();
        assertThat(sink.created).hasSize(4);
    }

    @Test
    void aRepeatAfterTheSeriesWindowStartsANewEventAndTheOldSeriesIsWrittenFirst() {
        EventRecorder recorder = start(sink, EventOptions.builder().seriesWindow(Duration.ofMinutes(6)));
        recorder.event(object("a"), EventType.NORMAL, "Tick", "Tick", "");
        recorder.event(object("a"), EventType.NORMAL, "Tick", "Tick", "");
        await().until(() -> sink.created.size() == 1);
        time.advance(Duration.ofMinutes(7));
        recorder.event(object("a"), EventType.NORMAL, "Tick", "Tick", "");
        // the sink notes a new event's count a moment after the event itself
        await().until(() -> sink.created.size() == 2 && sink.counts.containsKey("a.2"));
        assertThat(sink.counts).containsEntry("a.1", 2).containsEntry("a.2", 1);
    }

    @Test
    void aStepOfTheWallClockDoesNotEndASeries() {
        EventRecorder recorder = start(sink, EventOptions.builder().seriesWindow(Duration.ofMinutes(6)));
        recorder.event(object("a"), EventType.NORMAL, "Tick", "Tick", "");
        await().until(() -> sink.created.size() == 1);
        time.setWall(time.now().plus(Duration.ofHours(1)));
        recorder.event(object("a"), EventType.NORMAL, "Tick", "Tick", "");
        broadcaster.close();
        assertThat(sink.created).hasSize(1);
        assertThat(sink.counts).containsExactly(Map.entry("a.1", 2));
    }

    @Test
    void seriesUpdatesAreWrittenAtMostOncePerFlushPeriod() {
        AtomicInteger updates = new AtomicInteger();
        MemorySink counting = new MemorySink() {
            @Override
            public void updateSeries(String namespace, String name, int count, Instant lastObserved) {
                updates.incrementAndGet();
                super.updateSeries(namespace, name, count, lastObserved);
            }
        };
        EventRecorder recorder = start(counting, EventOptions.builder().seriesFlushPeriod(Duration.ofSeconds(30)));
        for (int i = 0; i < 10; i++) {
            recorder.event(object("a"), EventType.NORMAL, "Tick", "Tick", "");
        }
        await().until(() -> counting.created.size() == 1 && counting.counts.containsKey("a.1"));
        time.advance(Duration.ofSeconds(31));
        await().until(() -> counting.counts.get("a.1") == 10);
        for (int i = 0; i < 10; i++) {
            recorder.event(object("a"), EventType.NORMAL, "Tick", "Tick", "");
        }
        await().during(Duration.ofMillis(300)).until(() -> counting.counts.get("a.1") == 10);
        broadcaster.close();
        assertThat(counting.counts.get("a.1")).isEqualTo(20);
        assertThat(updates).hasValue(2);
    }

    @Test
    void oneObjectMayCauseABurstOfNewEventsThenOnePerRefillPeriod() {
        EventRecorder recorder = start(sink, EventOptions.builder());
        for (int i = 0; i < 30; i++) {
            recorder.event(object("noisy"), EventType.NORMAL, "Reason" + i, "Act", "");
        }
        recorder.event(object("quiet"), EventType.NORMAL, "Reason", "Act", "");
        await().until(() -> sink.created.size() == 26);
        assertThat(broadcaster.filtered()).isEqualTo(5);
        time.advance(Duration.ofMinutes(5));
        recorder.event(object("noisy"), EventType.NORMAL, "Later", "Act", "");
        recorder.event(object("noisy"), EventType.NORMAL, "TooSoon", "Act", "");
        await().until(() -> broadcaster.filtered() == 6);
        assertThat(sink.created).extracting(Occurrence::reason).contains("Later").doesNotContain("TooSoon");
    }

    @Test
    void recordingNeverBlocksOnASlowServerAndDropsWhatDoesNotFit() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch writing = new CountDownLatch(1);
        MemorySink stuck = new MemorySink() {
            @Override
            public String create(Occurrence occurrence) {
                writing.countDown();
                try {
                    release.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                return super.create(occurrence);
            }
        };
        EventRecorder recorder = start(stuck, EventOptions.builder().queueCapacity(10));
        recorder.event(object("first"), EventType.NORMAL, "Reason", "Act", "");
        writing.await();
        for (int i = 0; i < 100; i++) {
            recorder.event(object("o" + i), EventType.NORMAL, "Reason", "Act", "");
        }
        assertThat(broadcaster.dropped()).as("all but the 10 that fit in the queue").isEqualTo(90);
        release.countDown();
        broadcaster.close();
        assertThat(stuck.created).hasSize(11);
    }

    @Test
    void aFailingWriteIsLoggedAndTheWriterGoesOn() {
        MemorySink failing = new MemorySink() {
            @Override
            public String create(Occurrence occurrence) {
                if (occurrence.reason().equals("Bad")) {
                    throw new IllegalStateException("403 Forbidden");
                }
                return super.create(occurrence);
            }
        };
        EventRecorder recorder = start(failing, EventOptions.builder());
        recorder.event(object("a"), EventType.NORMAL, "Bad", "Act", "");
        recorder.event(object("a"), EventType.NORMAL, "Good", "Act", "");
        broadcaster.close();
        assertThat(failing.created).extracting(Occurrence::reason).containsExactly("Good");
    }

    @Test
    void aSeriesEvictedFromTheBoundedCacheIsWrittenBeforeItIsForgotten() {
        EventRecorder recorder = start(sink, EventOptions.builder().cacheSize(16));
        recorder.event(object("first"), EventType.NORMAL, "Tick", "Tick", "");
        recorder.event(object("first"), EventType.NORMAL, "Tick", "Tick", "");
        for (int i = 0; i < 20; i++) {
            recorder.event(object("other-" + i), EventType.NORMAL, "Tick", "Tick", "");
        }
        await().until(() -> sink.created.size() == 21);
        await().until(() -> sink.counts.get("first.1") == 2);
    }
}
