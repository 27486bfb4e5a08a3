package dev.operatorstarter.cache;

import static dev.operatorstarter.cache.ConfigMaps.configMap;
import static dev.operatorstarter.testing.FakeListerWatcher.page;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.operatorstarter.client.rest.WatchEvent;
import dev.operatorstarter.testing.FakeListerWatcher;
import dev.operatorstarter.testing.FakeListerWatcher.OpenWatch;
import dev.operatorstarter.testing.FakeTimeSource;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.ManagedFieldsEntryBuilder;
import io.fabric8.kubernetes.api.model.StatusBuilder;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The informer's handler guarantees, on a scripted list and watch. */
class SharedIndexInformerTest {

    private final FakeListerWatcher<ConfigMap> server = new FakeListerWatcher<>();
    private SharedIndexInformer<ConfigMap> informer;

    /** Records what a handler is told, as short strings. */
    static class Recorder implements ResourceEventHandler<ConfigMap> {
        final List<String> events = new CopyOnWriteArrayList<>();

        @Override
        public void onAdd(ConfigMap object, boolean isInInitialList) {
            events.add("add " + Keys.of(object) + (isInInitialList ? " initial" : ""));
        }

        @Override
        public void onUpdate(ConfigMap oldObject, ConfigMap newObject) {
            events.add("update " + Keys.of(newObject) + " " + oldObject.getMetadata().getResourceVersion() + "->"
                    + newObject.getMetadata().getResourceVersion());
        }

        @Override
        public void onDelete(ConfigMap object, boolean finalStateUnknown) {
            events.add("delete " + Keys.of(object) + (finalStateUnknown ? " unknown" : ""));
        }
    }

    private SharedIndexInformer<ConfigMap> informer(InformerOptions.Builder options) {
        informer = SharedIndexInformer.create("configmaps", server, ConfigMap.class, options
                .reflector(ReflectorOptions.builder().streamingList(false).initialBackoff(Duration.ofMillis(10))
                        .maxBackoff(Duration.ofMillis(50)).build()).build());
        return informer;
    }

    @AfterEach
    void stop() {
        if (informer != null) {
            informer.stop();
        }
    }

    @Test
    void aBlockedHandlerDelaysNeitherTheOtherHandlerNorTheCache() throws Exception {
        server.answerLists(options -> page("10", "", configMap("a", "one", "1")));
        informer(InformerOptions.builder());
        CountDownLatch release = new CountDownLatch(1);
        Recorder blocked = new Recorder() {
            @Override
            public void onAdd(ConfigMap object, boolean isInInitialList) {
                super.onAdd(object, isInInitialList);
                try {
                    release.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        };
        Recorder free = new Recorder();
        HandlerRegistration blockedRegistration = informer.addEventHandler(blocked);
        informer.addEventHandler(free);
        informer.start();

        OpenWatch<ConfigMap> watch = server.nextWatch();
        for (int i = 2; i <= 50; i++) {
            watch.emit(new WatchEvent.Added<>(configMap("a", "o" + i, Integer.toString(i))));
        }
        await().until(() -> free.events.size() == 50);
        assertThat(informer.indexer().size()).isEqualTo(50);
        assertThat(blocked.events).containsExactly("add a/one initial");
        assertThat(blockedRegistration.hasSynced()).as("still processing its initial list").isFalse();
        release.countDown();
        await().until(() -> blocked.events.size() == 50);
        assertThat(blocked.events).isEqualTo(free.events);
        await().until(blockedRegistration::hasSynced);
    }

    @Test
    void aHandlerAddedAfterStartFirstGetsTheCacheAsInitialAdds() throws Exception {
        server.answerLists(options -> page("10", "", configMap("a", "one", "1"), configMap("a", "two", "1")));
        informer(InformerOptions.builder()).start();
        OpenWatch<ConfigMap> watch = server.nextWatch();
        await().until(informer::hasSynced);

        Recorder late = new Recorder();
        HandlerRegistration registration = informer.addEventHandler(late);
        watch.emit(new WatchEvent.Modified<>(configMap("a", "one", "11")));
        await().until(() -> late.events.size() == 3);
        assertThat(late.events.subList(0, 2)).containsExactlyInAnyOrder("add a/one initial", "add a/two initial");
        assertThat(late.events.get(2)).isEqualTo("update a/one 1->11");
        await().until(registration::hasSynced);
    }

    @Test
    void aResyncReachesOnlyTheHandlerThatAskedForIt() throws Exception {
        server.answerLists(options -> page("10", "", configMap("a", "one", "1")));
        informer(InformerOptions.builder());
        Recorder resyncing = new Recorder();
        Recorder quiet = new Recorder();
        informer.addEventHandler(resyncing, Duration.ofSeconds(1));
        informer.addEventHandler(quiet);
        informer.start();
        await().atMost(Duration.ofSeconds(20)).until(() -> resyncing.events.contains("update a/one 1->1"));
        assertThat(quiet.events).containsExactly("add a/one initial");
    }

    @Test
    void aRelistAfterAResyncDoesNotReachTheResyncedHandlerAgainWithUnchangedObjects() throws Exception {
        AtomicInteger lists = new AtomicInteger();
        server.answerLists(options -> page(Integer.toString(10 + lists.incrementAndGet()), "", configMap("a", "one", "1")));
        FakeTimeSource time = new FakeTimeSource();
        BufferedInformer<ConfigMap> buffered = new BufferedInformer<>("configmaps", server, ConfigMap.class,
                InformerOptions.builder().reflector(ReflectorOptions.builder().streamingList(false).timeSource(time)
                        // the stall is judged on the same fake time, which jumps an hour below
                        .stallTimeout(Duration.ofHours(2)).build()).build());
        informer = buffered;
        Recorder hourly = new Recorder();
        Recorder quiet = new Recorder();
        informer.addEventHandler(hourly, Duration.ofHours(1));
        informer.addEventHandler(quiet);
        informer.start();
        OpenWatch<ConfigMap> watch = server.nextWatch();
        await().until(() -> hourly.events.size() == 1 && quiet.events.size() == 1);

        time.advance(Duration.ofHours(1));
        buffered.checkResync();
        await().until(() -> hourly.events.size() == 2);
        assertThat(hourly.events.get(1)).isEqualTo("update a/one 1->1");

        // A relist finds the object unchanged: a resync for nobody, since nobody's resync is due.
        watch.emit(new WatchEvent.Error<>(new StatusBuilder().withCode(410).withReason("Expired").build()));
        server.nextWatch().emit(new WatchEvent.Added<>(configMap("a", "two", "12")));
        await().until(() -> quiet.events.size() == 2 && hourly.events.size() >= 3);
        assertThat(hourly.events).containsExactly("add a/one initial", "update a/one 1->1", "add a/two");
        assertThat(quiet.events).containsExactly("add a/one initial", "add a/two");
    }

    @Test
    void aRelistNotifiesChangesAndTombstonesButNotUnchangedObjects() throws Exception {
        AtomicInteger lists = new AtomicInteger();
        server.answerLists(options -> lists.incrementAndGet() == 1
                ? page("10", "", configMap("a", "same", "1"), configMap("a", "changed", "1"), configMap("a", "gone", "1"))
                : page("20", "", configMap("a", "same", "1"), configMap("a", "changed", "15"), configMap("a", "new", "16")));
        informer(InformerOptions.builder());
        Recorder recorder = new Recorder();
        informer.addEventHandler(recorder);
        informer.start();
        OpenWatch<ConfigMap> watch = server.nextWatch();
        await().until(() -> recorder.events.size() == 3); // the first list is applied and delivered
        watch.emit(new WatchEvent.Error<>(new StatusBuilder().withCode(410).withReason("Expired").build()));
        await().until(() -> recorder.events.size() == 6);
        assertThat(recorder.events.subList(3, 6)).containsExactlyInAnyOrder("update a/changed 1->15", "add a/new",
                "delete a/gone unknown");
        assertThat(informer.lister().namespace("a").list()).extracting(Keys::of)
                .containsExactlyInAnyOrder("a/same", "a/changed", "a/new");
    }

    /** Records processing errors per stage. */
    static final class RecordingMetrics implements ReflectorMetrics {
        final List<String> processingErrors = new CopyOnWriteArrayList<>();

        @Override
        public void processingError(String name, String stage) {
            processingErrors.add(name + " " + stage);
        }
    }

    @Test
    void anObjectAnIndexFunctionThrowsOnIsSkippedCountedAndTheInformerGoesOn() throws Exception {
        server.answerLists(options -> page("10", "", configMap("a", "one", "1"), configMap("a", "poison", "1"),
                configMap("a", "two", "1")));
        RecordingMetrics metrics = new RecordingMetrics();
        informer(InformerOptions.builder().metrics(metrics));
        informer.addIndexers(java.util.Map.of("byName", object -> {
            if (object.getMetadata().getName().equals("poison")) {
                throw new IllegalStateException("index function bug");
            }
            return List.of(object.getMetadata().getName());
        }));
        Recorder recorder = new Recorder();
        informer.addEventHandler(recorder);
        informer.start();
        OpenWatch<ConfigMap> watch = server.nextWatch();
        await().until(informer::hasSynced);
        watch.emit(new WatchEvent.Added<>(configMap("a", "three", "11")));
        await().until(() -> recorder.events.contains("add a/three"));
        assertThat(recorder.events).containsExactly("add a/one initial", "add a/two initial", "add a/three");
        assertThat(informer.indexer().listKeys()).containsExactlyInAnyOrder("a/one", "a/two", "a/three");
        assertThat(informer.indexer().byIndex("byName", "three")).hasSize(1);
        assertThat(metrics.processingErrors).containsExactly("configmaps index");
    }

    @Test
    void aThrowingHandlerGoesOnWithTheNextNotification() throws Exception {
        server.answerLists(options -> page("10", "", configMap("a", "one", "1"), configMap("a", "two", "1")));
        informer(InformerOptions.builder());
        List<String> seen = new CopyOnWriteArrayList<>();
        informer.addEventHandler(new ResourceEventHandler<>() {
            @Override
            public void onAdd(ConfigMap object, boolean isInInitialList) {
                seen.add(Keys.of(object));
                throw new IllegalStateException("handler bug");
            }
        });
        informer.start();
        await().until(() -> seen.size() == 2);
    }

    @Test
    void aRemovedHandlerHearsNothingMore() throws Exception {
        server.answerLists(options -> page("10", "", configMap("a", "one", "1")));
        informer(InformerOptions.builder());
        Recorder kept = new Recorder();
        Recorder removed = new Recorder();
        informer.addEventHandler(kept);
        HandlerRegistration registration = informer.addEventHandler(removed);
        informer.start();
        OpenWatch<ConfigMap> watch = server.nextWatch();
        await().until(() -> removed.events.size() == 1);
        registration.remove();
        watch.emit(new WatchEvent.Added<>(configMap("a", "two", "2")));
        await().until(() -> kept.events.size() == 2);
        assertThat(removed.events).containsExactly("add a/one initial");
    }

    @Test
    void theDefaultTransformDropsManagedFieldsBeforeCaching() throws Exception {
        ConfigMap withFields = new ConfigMapBuilder(configMap("a", "one", "1")).editMetadata()
                .withManagedFields(new ManagedFieldsEntryBuilder().withManager("kubectl").build()).endMetadata().build();
        server.answerLists(options -> page("10", "", withFields));
        informer(InformerOptions.builder()).start();
        await().until(informer::hasSynced);
        assertThat(informer.lister().namespace("a").get("one")).get()
                .satisfies(cached -> assertThat(cached.getMetadata().getManagedFields()).isNullOrEmpty());
    }

    @Test
    void aFailingListIsVisibleAsTheLastErrorUntilItSucceeds() throws Exception {
        AtomicInteger lists = new AtomicInteger();
        CountDownLatch allow = new CountDownLatch(1);
        server.answerLists(options -> {
            if (allow.getCount() > 0) {
                lists.incrementAndGet();
                throw ReflectorTest.status(403, "Forbidden");
            }
            return page("10", "");
        });
        informer(InformerOptions.builder()).start();
        await().until(() -> informer.lastError().isPresent());
        assertThat(informer.lastError().get()).hasMessageContaining("403");
        assertThat(informer.hasSynced()).isFalse();
        allow.countDown();
        await().until(informer::hasSynced);
        await().until(() -> informer.lastError().isEmpty());
        assertThat(server.nextWatch()).isNotNull();
    }
}
