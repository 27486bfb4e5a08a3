package dev.operatorstarter.cache;

import static dev.operatorstarter.cache.ConfigMaps.configMap;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ConfigMap;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/** client-go's DeltaFIFO guarantees, one by one, then under many threads. */
class DeltaFifoTest {

    private final Indexer<ConfigMap> known = Indexer.create();
    private final DeltaFifo<ConfigMap> fifo = new DeltaFifo<>(new DeltaFifo.KnownObjects<>() {
        @Override
        public List<String> listKeys() {
            return known.listKeys();
        }

        @Override
        public Optional<ConfigMap> get(String key) {
            return known.get(key);
        }
    });

    private DeltaFifo.Deltas<ConfigMap> pop() throws InterruptedException {
        List<DeltaFifo.Deltas<ConfigMap>> popped = new ArrayList<>();
        assertThat(fifo.pop(popped::add, 1, TimeUnit.SECONDS)).as("something to pop").isTrue();
        return popped.get(0);
    }

    @Test
    void keysComeOutInTheOrderOfTheirFirstChangeWithAllTheirDeltasInOrder() throws Exception {
        fifo.add(configMap("a", "one", "1"));
        fifo.add(configMap("a", "two", "2"));
        fifo.update(configMap("a", "one", "3"));

        DeltaFifo.Deltas<ConfigMap> one = pop();
        assertThat(one.key()).isEqualTo("a/one");
        assertThat(one.deltas()).extracting(Delta::type).containsExactly(Delta.Type.ADDED, Delta.Type.UPDATED);
        assertThat(one.newest().object().getMetadata().getResourceVersion()).isEqualTo("3");
        assertThat(pop().key()).isEqualTo("a/two");
        assertThat(fifo.pop(d -> { }, 10, TimeUnit.MILLISECONDS)).as("empty").isFalse();
    }

    @Test
    void twoDeletesInARowAreOneAndARealFinalStateBeatsATombstone() throws Exception {
        known.add(configMap("a", "one", "1"));
        fifo.delete(configMap("a", "one", "2"));
        fifo.replace(List.of());
        DeltaFifo.Deltas<ConfigMap> one = pop();
        assertThat(one.deltas()).singleElement().satisfies(delta -> {
            assertThat(delta.type()).isEqualTo(Delta.Type.DELETED);
            assertThat(delta.finalStateUnknown()).isFalse();
            assertThat(delta.object().getMetadata().getResourceVersion()).isEqualTo("2");
        });
    }

    @Test
    void deletingAnObjectNobodyKnowsQueuesNothing() {
        fifo.delete(configMap("a", "ghost", "1"));
        assertThat(fifo.listKeys()).isEmpty();
    }

    @Test
    void replaceQueuesEveryListedObjectAndTombstonesForKnownAndQueuedKeysNoLongerListed() throws Exception {
        known.add(configMap("a", "kept", "1"));
        known.add(configMap("a", "gone", "1"));
        fifo.add(configMap("a", "queued-only", "2"));
        fifo.replace(List.of(configMap("a", "kept", "3"), configMap("a", "new", "3")));

        Map<String, DeltaFifo.Deltas<ConfigMap>> byKey = new ConcurrentHashMap<>();
        while (fifo.pop(d -> byKey.put(d.key(), d), 0, TimeUnit.MILLISECONDS)) {
            // drain
        }
        assertThat(byKey.get("a/kept").deltas()).extracting(Delta::type).containsExactly(Delta.Type.REPLACED);
        assertThat(byKey.get("a/new").deltas()).extracting(Delta::type).containsExactly(Delta.Type.REPLACED);
        assertThat(byKey.get("a/gone").newest()).satisfies(delta -> {
            assertThat(delta.type()).isEqualTo(Delta.Type.DELETED);
            assertThat(delta.finalStateUnknown()).isTrue();
            assertThat(delta.object().getMetadata().getResourceVersion()).as("the last known state").isEqualTo("1");
        });
        assertThat(byKey.get("a/queued-only").deltas()).extracting(Delta::type, Delta::finalStateUnknown)
                .containsExactly(org.assertj.core.groups.Tuple.tuple(Delta.Type.ADDED, false),
                        org.assertj.core.groups.Tuple.tuple(Delta.Type.DELETED, true));
    }

    /** Pops everything, in order, as "key: TYPE@version, ..." with tombstones marked "TOMBSTONE". */
    private List<String> drainAsText() throws InterruptedException {
        List<String> popped = new ArrayList<>();
        while (fifo.pop(deltas -> popped.add(deltas.key() + ": " + String.join(", ", deltas.deltas().stream()
                .map(delta -> (delta.finalStateUnknown() ? "TOMBSTONE" : delta.type().name()) + "@"
                        + delta.object().getMetadata().getResourceVersion())
                .toList())), 0, TimeUnit.MILLISECONDS)) {
            // drain
        }
        return popped;
    }

    private void know(ConfigMap... objects) {
        for (ConfigMap object : objects) {
            known.add(object);
        }
    }

    // client-go's TestDeltaFIFO_ReplaceMakesDeletions, case by case: a key missing from a relist
    // is deleted with the newest state this FIFO holds for it, queued or known.

    @Test
    void aRelistKeepsAQueuedRealDeletionAndTombstonesAKnownKeyWithTheCachesCopy() throws Exception {
        know(configMap("a", "foo", "5"), configMap("a", "bar", "6"), configMap("a", "baz", "7"));
        fifo.delete(configMap("a", "baz", "10"));
        fifo.replace(List.of(configMap("a", "foo", "5")));
        assertThat(drainAsText()).containsExactly("a/baz: DELETED@10", "a/foo: REPLACED@5", "a/bar: TOMBSTONE@6");
    }

    @Test
    void aRelistTombstonesAQueuedAddWithTheAddedStateNotTheCachesOlderCopy() throws Exception {
        know(configMap("a", "foo", "5"), configMap("a", "bar", "6"), configMap("a", "baz", "7"));
        fifo.add(configMap("a", "baz", "10"));
        fifo.replace(List.of(configMap("a", "foo", "5")));
        assertThat(drainAsText()).containsExactly("a/baz: ADDED@10, TOMBSTONE@10", "a/foo: REPLACED@5",
                "a/bar: TOMBSTONE@6");
    }

    @Test
    void aRelistTombstonesAnObjectDeletedAndRecreatedInTheQueueWithItsNewestState() throws Exception {
        know(configMap("a", "foo", "5"), configMap("a", "bar", "6"), configMap("a", "baz", "7"));
        fifo.delete(configMap("a", "bar", "6"));
        fifo.add(configMap("a", "bar", "100"));
        fifo.replace(List.of(configMap("a", "foo", "5")));
        assertThat(drainAsText()).containsExactly("a/bar: DELETED@6, ADDED@100, TOMBSTONE@100", "a/foo: REPLACED@5",
                "a/baz: TOMBSTONE@7");
    }

    @Test
    void aSecondRelistTombstonesWithTheStateTheFirstRelistQueuedNotTheCachesCopy() throws Exception {
        // The cache holds bar at 6; a relist brings 100 (not yet popped); the next relist lacks bar:
        // the handler must see 6 -> 100, then a deletion whose last state is 100.
        know(configMap("a", "foo", "5"), configMap("a", "bar", "6"), configMap("a", "baz", "7"));
        fifo.replace(List.of(configMap("a", "bar", "100"), configMap("a", "foo", "5")));
        fifo.replace(List.of(configMap("a", "foo", "5")));
        assertThat(drainAsText()).containsExactly("a/bar: REPLACED@100, TOMBSTONE@100",
                "a/foo: REPLACED@5, REPLACED@5", "a/baz: TOMBSTONE@7");
    }

    @Test
    void aFirstListWithADuplicateKeyIsSyncedOnceThatKeyIsPopped() throws Exception {
        // client-go's TestDeltaFIFO_HasSynced duplicate-key case: the initial population counts keys,
        // not list entries (a broken server or proxy could repeat one).
        fifo.replace(List.of(configMap("a", "one", "1"), configMap("a", "one", "2")));
        assertThat(fifo.hasSynced()).isFalse();
        DeltaFifo.Deltas<ConfigMap> one = pop();
        assertThat(one.deltas()).hasSize(2);
        assertThat(fifo.hasSynced()).isTrue();
    }

    @Test
    void resyncSyncsOnlyKnownKeysWithNothingPending() throws Exception {
        known.add(configMap("a", "idle", "1"));
        known.add(configMap("a", "busy", "1"));
        fifo.update(configMap("a", "busy", "2"));
        fifo.resync();
        DeltaFifo.Deltas<ConfigMap> busy = pop();
        assertThat(busy.key()).isEqualTo("a/busy");
        assertThat(busy.deltas()).extracting(Delta::type).containsExactly(Delta.Type.UPDATED);
        DeltaFifo.Deltas<ConfigMap> idle = pop();
        assertThat(idle.deltas()).extracting(Delta::type).containsExactly(Delta.Type.SYNC);
    }

    @Test
    void hasSyncedOnlyOnceTheFirstReplaceIsFullyPopped() throws Exception {
        assertThat(fifo.hasSynced()).isFalse();
        fifo.replace(List.of(configMap("a", "one", "1"), configMap("a", "two", "1")));
        assertThat(fifo.hasSynced()).isFalse();
        DeltaFifo.Deltas<ConfigMap> first = pop();
        assertThat(first.isInInitialList()).isTrue();
        assertThat(fifo.hasSynced()).isFalse();
        pop();
        assertThat(fifo.hasSynced()).isTrue();
        fifo.add(configMap("a", "three", "2"));
        assertThat(pop().isInInitialList()).isFalse();
    }

    @Test
    void anEmptyFirstListIsSyncedAtOnce() {
        fifo.replace(List.of());
        assertThat(fifo.hasSynced()).isTrue();
    }

    @Test
    void closeWakesAWaitingPop() throws Exception {
        CountDownLatch returned = new CountDownLatch(1);
        AtomicBoolean result = new AtomicBoolean(true);
        Thread consumer = new Thread(() -> {
            try {
                result.set(fifo.pop(d -> { }, 1, TimeUnit.MINUTES));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            returned.countDown();
        });
        consumer.start();
        fifo.close();
        assertThat(returned.await(10, TimeUnit.SECONDS)).isTrue();
        assertThat(result).isFalse();
    }

    @Test
    void manyProducersAndOneConsumerLoseNothingAndKeepEachKeysOrder() throws Exception {
        int producers = 8;
        int keysPerProducer = 50;
        int versions = 40;
        Map<String, List<Integer>> seen = new ConcurrentHashMap<>();
        AtomicBoolean producing = new AtomicBoolean(true);
        Thread consumer = new Thread(() -> {
            try {
                while (producing.get() || !fifo.listKeys().isEmpty()) {
                    fifo.pop(deltas -> deltas.deltas().forEach(delta -> seen
                            .computeIfAbsent(deltas.key(), k -> new ArrayList<>())
                            .add(Integer.parseInt(delta.object().getMetadata().getResourceVersion()))),
                            10, TimeUnit.MILLISECONDS);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        consumer.start();
        List<Thread> threads = new ArrayList<>();
        for (int p = 0; p < producers; p++) {
            int producer = p;
            threads.add(new Thread(() -> {
                for (int v = 1; v <= versions; v++) {
                    for (int k = 0; k < keysPerProducer; k++) {
                        ConfigMap object = configMap("p" + producer, "k" + k, Integer.toString(v));
                        if (v == 1) {
                            fifo.add(object);
                        } else {
                            fifo.update(object);
                        }
                    }
                    if (v % 10 == 0) {
                        fifo.resync();
                    }
                }
            }));
        }
        threads.forEach(Thread::start);
        for (Thread thread : threads) {
            thread.join();
        }
        producing.set(false);
        consumer.join(30_000);
        assertThat(consumer.isAlive()).isFalse();

        assertThat(seen).hasSize(producers * keysPerProducer);
        List<Integer> all = new ArrayList<>();
        for (int v = 1; v <= versions; v++) {
            all.add(v);
        }
        seen.forEach((key, order) -> assertThat(order).as(key).containsExactlyElementsOf(all));
    }
}
