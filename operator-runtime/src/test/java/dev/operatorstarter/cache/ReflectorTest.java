package dev.operatorstarter.cache;

import static dev.operatorstarter.cache.ConfigMaps.configMap;
import static dev.operatorstarter.testing.FakeListerWatcher.page;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.operatorstarter.client.rest.ApiException;
import dev.operatorstarter.client.rest.ListOptions;
import dev.operatorstarter.client.rest.WatchEvent;
import dev.operatorstarter.testing.FakeListerWatcher;
import dev.operatorstarter.testing.FakeListerWatcher.OpenWatch;
import dev.operatorstarter.testing.FakeTimeSource;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Status;
import io.fabric8.kubernetes.api.model.StatusBuilder;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;

/** The reflector's steps against a scripted list and watch (faults a real server will not make on demand). */
class ReflectorTest {

    private final FakeListerWatcher<ConfigMap> server = new FakeListerWatcher<>();
    private final Indexer<ConfigMap> indexer = Indexer.create();
    private final DeltaFifo<ConfigMap> fifo = new DeltaFifo<>(new DeltaFifo.KnownObjects<>() {
        @Override
        public List<String> listKeys() {
            return indexer.listKeys();
        }

        @Override
        public java.util.Optional<ConfigMap> get(String key) {
            return indexer.get(key);
        }
    });
    private final List<ReflectorException> errors = new CopyOnWriteArrayList<>();
    private Reflector<ConfigMap> reflector;
    private Thread thread;

    @AfterEach
    void stop() throws InterruptedException {
        if (reflector != null) {
            reflector.stop();
            thread.join(FakeListerWatcher.WAIT.toMillis());
            assertThat(thread.isAlive()).as("reflector thread ends after stop").isFalse();
        }
    }

    private void start(ReflectorOptions.Builder options) {
        start(options, UnaryOperator.identity(), ReflectorMetrics.NONE);
    }

    private void start(ReflectorOptions.Builder options, UnaryOperator<ConfigMap> transform, ReflectorMetrics metrics) {
        reflector = new Reflector<>("configmaps", server, fifo, transform,
                options.errorHandler(errors::add).initialBackoff(Duration.ofMillis(10)).maxBackoff(Duration.ofMillis(50))
                        .build(), metrics);
        thread = new Thread(reflector::run, "reflector-test");
        thread.start();
    }

    /** A transform with a bug: it throws on resourceVersion 13. */
    private static UnaryOperator<ConfigMap> failingOnVersion13() {
        return object -> {
            if ("13".equals(object.getMetadata().getResourceVersion())) {
                throw new IllegalStateException("transform bug");
            }
            return object;
        };
    }

    private static ReflectorOptions.Builder listing() {
        return ReflectorOptions.builder().streamingList(false);
    }

    static ApiException status(int code, String reason) {
        Status status = new StatusBuilder().withCode(code).withReason(reason).withMessage(reason.toLowerCase()).build();
        return ApiException.fromStatus(status, "GET test");
    }

    /** Pops everything queued so far into the indexer. */
    private List<DeltaFifo.Deltas<ConfigMap>> drain() throws InterruptedException {
        List<DeltaFifo.Deltas<ConfigMap>> popped = new CopyOnWriteArrayList<>();
        while (fifo.pop(deltas -> {
            popped.add(deltas);
            for (Delta<ConfigMap> delta : deltas.deltas()) {
                if (delta.type() == Delta.Type.DELETED) {
                    indexer.delete(delta.object());
                } else {
                    indexer.update(delta.object());
                }
            }
        }, 0, java.util.concurrent.TimeUnit.MILLISECONDS)) {
            // keep popping
        }
        return popped;
    }

    @Test
    void listsInPagesThenWatchesFromTheListsResourceVersionWithBookmarksAndARandomTimeout() throws Exception {
        server.answerLists(options -> switch (options.continueToken() == null ? "" : options.continueToken()) {
            case "" -> page("10", "p2", configMap("a", "one", "5"), configMap("a", "two", "6"));
            case "p2" -> page("10", "", configMap("a", "three", "7"));
            default -> throw new IllegalStateException(options.toString());
        });
        start(listing().pageSize(2));

        ListOptions first = server.nextList();
        assertThat(first.limit()).isEqualTo(2);
        assertThat(first.resourceVersion()).as("the first list reads the latest state").isNullOrEmpty();
        ListOptions second = server.nextList();
        assertThat(second.continueToken()).isEqualTo("p2");
        assertThat(second.resourceVersion()).as("a continue page carries no resourceVersion").isNull();

        OpenWatch<ConfigMap> watch = server.nextWatch();
        assertThat(watch.options().resourceVersion()).isEqualTo("10");
        assertThat(watch.options().allowWatchBookmarks()).isTrue();
        assertThat(watch.options().timeoutSeconds()).isBetween(300L, 600L);
        assertThat(drain()).extracting(DeltaFifo.Deltas::key).containsExactly("a/one", "a/two", "a/three");
        assertThat(fifo.hasSynced()).isTrue();
        assertThat(reflector.lastSyncResourceVersion()).isEqualTo("10");
        await().until(reflector::isWatching);
    }

    @Test
    void anExpiredContinueTokenFallsBackToOneFullList() throws Exception {
        server.answerLists(options -> {
            if ("p2".equals(options.continueToken())) {
                throw status(410, "Expired");
            }
            return options.limit() > 0 ? page("10", "p2", configMap("a", "one", "5"))
                    : page("12", "", configMap("a", "one", "5"), configMap("a", "two", "11"));
        });
        start(listing().pageSize(1));

        server.nextList();
        server.nextList();
        ListOptions full = server.nextList();
        assertThat(full.limit()).isZero();
        assertThat(server.nextWatch().options().resourceVersion()).isEqualTo("12");
        assertThat(drain()).extracting(DeltaFifo.Deltas::key).containsExactly("a/one", "a/two");
        assertThat(errors).isEmpty();
    }

    @Test
    void watchEventsReachTheFifoInOrderAndBookmarksAdvanceTheResourceVersion() throws Exception {
        server.answerLists(options -> page("10", "", configMap("a", "one", "5")));
        start(listing());
        server.nextList();
        OpenWatch<ConfigMap> watch = server.nextWatch();
        watch.emit(new WatchEvent.Added<>(configMap("a", "two", "11")));
        watch.emit(new WatchEvent.Modified<>(configMap("a", "one", "12")));
        watch.emit(new WatchEvent.Deleted<>(configMap("a", "two", "13")));
        watch.emit(new WatchEvent.Bookmark<>("20", Map.of()));
        await().until(() -> reflector.lastSyncResourceVersion().equals("20"));
        watch.close();

        OpenWatch<ConfigMap> again = server.nextWatch();
        assertThat(again.options().resourceVersion()).as("a closed watch reopens from the bookmark").isEqualTo("20");
        assertThat(server.pendingLists()).as("no relist after a normal close").isEmpty();
        List<DeltaFifo.Deltas<ConfigMap>> popped = drain();
        assertThat(popped).extracting(DeltaFifo.Deltas::key).containsExactly("a/one", "a/two");
        assertThat(popped.get(0).deltas()).extracting(Delta::type)
                .containsExactly(Delta.Type.REPLACED, Delta.Type.UPDATED);
        assertThat(popped.get(1).deltas()).extracting(Delta::type)
                .containsExactly(Delta.Type.ADDED, Delta.Type.DELETED);
    }

    @Test
    void aWatchAnswered410RelistsFromTheLastVersionThenFromLatestIfThatIsExpiredToo() throws Exception {
        AtomicInteger lists = new AtomicInteger();
        server.answerLists(options -> switch (lists.incrementAndGet()) {
            case 1 -> page("10", "", configMap("a", "one", "5"));
            case 2 -> throw status(410, "Expired");
            default -> page("30", "", configMap("a", "two", "25"));
        });
        start(listing());
        server.nextList();
        OpenWatch<ConfigMap> watch = server.nextWatch();
        watch.emit(new WatchEvent.Bookmark<>("15", Map.of()));
        watch.emit(new WatchEvent.Error<>(new StatusBuilder().withCode(410).withReason("Expired").build()));

        ListOptions relist = server.nextList();
        assertThat(relist.resourceVersion()).isEqualTo("15");
        assertThat(relist.resourceVersionMatch()).isEqualTo("NotOlderThan");
        ListOptions latest = server.nextList();
        assertThat(latest.resourceVersion()).as("then from the latest state").isNullOrEmpty();
        assertThat(server.nextWatch().options().resourceVersion()).isEqualTo("30");
        assertThat(server.pendingLists()).as("one relist, not a loop").isEmpty();

        List<DeltaFifo.Deltas<ConfigMap>> popped = drain();
        DeltaFifo.Deltas<ConfigMap> one = popped.stream().filter(d -> d.key().equals("a/one")).findFirst().orElseThrow();
        assertThat(one.newest().type()).isEqualTo(Delta.Type.DELETED);
        assertThat(one.newest().finalStateUnknown()).as("missing from the relist: a tombstone").isTrue();
        assertThat(indexer.listKeys()).containsExactly("a/two");
        assertThat(errors).hasAtLeastOneElementOfType(ReflectorException.WatchFailed.class);
    }

    @Test
    void aSilentWatchIsReopenedFromTheSameVersion() throws Exception {
        FakeTimeSource time = new FakeTimeSource();
        Duration stall = Duration.ofMinutes(3);
        server.answerLists(options -> page("10", ""));
        start(listing().stallTimeout(stall).timeSource(time));
        server.nextList();
        OpenWatch<ConfigMap> first = server.nextWatch();
        await().until(() -> time.hasWaiterWithin(stall)); // the watchdog waits for the stall

        time.advance(stall.minusMillis(1));
        await().until(() -> time.hasWaiterWithin(Duration.ofMillis(1))); // woke, and waits for the rest
        assertThat(server.pendingWatches()).as("not stalled before the stall timeout").isEmpty();
        time.advance(Duration.ofMillis(1));

        OpenWatch<ConfigMap> second = server.nextWatch();
        assertThat(second.options().resourceVersion()).isEqualTo("10");
        assertThat(errors).first().isInstanceOf(ReflectorException.WatchStalled.class);
        assertThat(first.sink().currentSubscriberCount()).as("the stalled watch was cancelled").isZero();
        assertThat(server.pendingLists()).as("a stall does not relist").isEmpty();
    }

    @Test
    void aBookmarkKeepsAWatchAliveAndTheStallCountsFromIt() throws Exception {
        FakeTimeSource time = new FakeTimeSource();
        Duration stall = Duration.ofMinutes(3);
        server.answerLists(options -> page("10", ""));
        start(listing().stallTimeout(stall).timeSource(time));
        server.nextList();
        OpenWatch<ConfigMap> watch = server.nextWatch();
        await().until(() -> time.hasWaiterWithin(stall));

        time.advance(Duration.ofMinutes(2));
        watch.emit(new WatchEvent.Bookmark<>("12", Map.of()));
        await().until(() -> reflector.lastSyncResourceVersion().equals("12"));
        time.advance(Duration.ofMinutes(2)); // 4 minutes since the watch opened, 2 since the bookmark
        await().until(() -> time.hasWaiterWithin(Duration.ofMinutes(1)));
        assertThat(server.pendingWatches()).as("a bookmark is a sign of life").isEmpty();
        assertThat(errors).isEmpty();

        time.advance(Duration.ofMinutes(1));
        assertThat(server.nextWatch().options().resourceVersion()).as("reopened from the bookmark").isEqualTo("12");
        assertThat(errors).singleElement().isInstanceOf(ReflectorException.WatchStalled.class);
    }

    @Test
    void aFailedWatchBacksOffAndWatchesAgainWithoutRelisting() throws Exception {
        server.answerLists(options -> page("10", ""));
        start(listing());
        server.nextList();
        server.nextWatch().fail(new dev.operatorstarter.client.rest.KubernetesClientException("connection reset"));
        OpenWatch<ConfigMap> again = server.nextWatch();
        assertThat(again.options().resourceVersion()).isEqualTo("10");
        assertThat(server.pendingLists()).isEmpty();
        assertThat(errors).singleElement().isInstanceOf(ReflectorException.WatchFailed.class)
                .extracting(Throwable::getMessage).asString().contains("connection reset");
    }

    /** A reflector whose backoff after a failure the server answered is 5 minutes: longer than any test waits. */
    private void startWithLongBackoff() {
        reflector = new Reflector<>("configmaps", server, fifo, UnaryOperator.identity(), listing()
                .errorHandler(errors::add).initialBackoff(Duration.ofMinutes(5)).maxBackoff(Duration.ofMinutes(5))
                .build(), ReflectorMetrics.NONE);
        thread = new Thread(reflector::run, "reflector-test");
        thread.start();
    }

    private static dev.operatorstarter.client.rest.KubernetesClientException connectionRefused() {
        return new dev.operatorstarter.client.rest.KubernetesClientException("GET /api/v1/configmaps failed: "
                + "Connection refused", new java.net.ConnectException("Connection refused"));
    }

    @Test
    void aWatchCutMidStreamAfterItOpenedIsReopenedAtOnceFromTheLastVersionNotAfterABackoff() throws Exception {
        server.answerLists(options -> page("10", ""));
        startWithLongBackoff();
        server.nextList();
        OpenWatch<ConfigMap> watch = server.nextWatch();
        watch.emit(new WatchEvent.Added<>(configMap("a", "one", "11")));
        await().until(() -> reflector.lastSyncResourceVersion().equals("11"));
        watch.fail(new dev.operatorstarter.client.rest.KubernetesClientException(
                "GET /api/v1/configmaps failed: Connection prematurely closed DURING response"));
        assertThat(server.nextWatch().options().resourceVersion()).isEqualTo("11");
        assertThat(server.pendingLists()).as("no relist").isEmpty();
    }

    @Test
    void aWatchEventOverTheSizeLimitIsBackedOffNotReopenedAtOnceSinceItWouldComeAgain() throws Exception {
        server.answerLists(options -> page("10", ""));
        startWithLongBackoff();
        server.nextList();
        OpenWatch<ConfigMap> watch = server.nextWatch();
        watch.emit(new WatchEvent.Added<>(configMap("a", "one", "11")));
        await().until(() -> reflector.lastSyncResourceVersion().equals("11"));
        watch.fail(new dev.operatorstarter.client.rest.ResponseTooLargeException("watch event on GET /api/v1/configmaps "
                + "exceeded the 16 MiB limit of one watch event (ClientOptions.maxWatchEventBytes)"));

        await().until(() -> reflector.state() instanceof ReflectorState.BackingOff);
        ReflectorState.BackingOff backingOff = (ReflectorState.BackingOff) reflector.state();
        assertThat(backingOff.then()).as("then reopened from the last version").isEqualTo(new ReflectorState.Watching("11"));
        assertThat(backingOff.delay()).as("a jittered share of the five-minute backoff").isPositive();
        assertThat(reflector.lastError()).hasValueSatisfying(error -> assertThat(error).hasMessageContaining(
                "exceeded the 16 MiB limit of one watch event"));
        assertThat(server.pendingWatches()).as("not reopened: the backoff is five minutes").isEmpty();
    }

    @Test
    void eventsDecodedJustBeforeABadOneAreDeliveredAndTheWatchIsReopenedAtOnceAfterThem() throws Exception {
        // Three events arrive in one read and the third is not JSON: the two before it were
        // decoded, and the error must not overtake them on their way to the reflector's thread.
        AtomicInteger watches = new AtomicInteger();
        server.answerLists(options -> page("10", ""));
        server.answerWatches(options -> watches.incrementAndGet() == 1
                ? Flux.concat(Flux.just(new WatchEvent.Added<>(configMap("a", "one", "11")),
                        new WatchEvent.Added<>(configMap("b", "two", "12"))),
                        Flux.error(new dev.operatorstarter.client.rest.KubernetesClientException(
                                "GET /api/v1/configmaps returned a body that is not valid JSON: Unexpected character")))
                : null);
        startWithLongBackoff();
        server.nextList();

        assertThat(server.nextWatch().options().resourceVersion()).as("reopened at once, after the two events")
                .isEqualTo("12");
        drain();
        assertThat(indexer.listKeys()).containsExactlyInAnyOrder("a/one", "b/two");
        assertThat(server.pendingLists()).as("no relist").isEmpty();
    }

    @Test
    void aServerThatCannotBeReachedIsRetriedWithinASecondHoweverLongTheBackoffForErrorsItAnswers() throws Exception {
        AtomicInteger refused = new AtomicInteger();
        server.answerLists(options -> page("10", ""));
        server.answerWatches(options -> refused.incrementAndGet() <= 4 ? Flux.error(connectionRefused()) : null);
        startWithLongBackoff();
        server.nextList();
        assertThat(server.nextWatch().options().resourceVersion()).isEqualTo("10");
        assertThat(refused).hasValue(5);
        assertThat(errors).hasSize(4).allSatisfy(error -> assertThat(error).hasMessageContaining("Connection refused"));
    }

    @Test
    void aWatchFailureNamesTheVersionTheWatchStartedFromAndTheOneItReached() throws Exception {
        server.answerLists(options -> page("10", ""));
        start(listing());
        server.nextList();
        OpenWatch<ConfigMap> watch = server.nextWatch();
        watch.emit(new WatchEvent.Added<>(configMap("a", "one", "11")));
        watch.emit(new WatchEvent.Bookmark<>("12", Map.of()));
        await().until(() -> reflector.lastSyncResourceVersion().equals("12"));
        watch.fail(new dev.operatorstarter.client.rest.KubernetesClientException("connection reset"));
        server.nextWatch();
        assertThat(errors).singleElement().extracting(Throwable::getMessage).asString()
                .contains("watch from resourceVersion \"10\"", "reached \"12\"", "connection reset");
    }

    @Test
    void aFailedListIsRetriedAfterABackoffAndReported() throws Exception {
        AtomicInteger lists = new AtomicInteger();
        server.answerLists(options -> {
            if (lists.incrementAndGet() < 3) {
                throw status(403, "Forbidden");
            }
            return page("10", "");
        });
        start(listing());
        server.nextWatch();
        assertThat(lists).hasValue(3);
        assertThat(errors).hasSize(2).allSatisfy(error -> assertThat(error)
                .isInstanceOf(ReflectorException.ListFailed.class).hasMessageContaining("403"));
        assertThat(reflector.lastError()).isEmpty();
    }

    @Test
    void aStreamingListFillsTheFifoFromInitialEventsAndGoesOnWatching() throws Exception {
        start(ReflectorOptions.builder());
        OpenWatch<ConfigMap> stream = server.nextWatch();
        assertThat(stream.options().sendInitialEvents()).isTrue();
        assertThat(stream.options().resourceVersionMatch()).isEqualTo("NotOlderThan");
        stream.emit(new WatchEvent.Added<>(configMap("a", "one", "5")));
        stream.emit(new WatchEvent.Added<>(configMap("a", "two", "6")));
        assertThat(fifo.listKeys()).as("nothing reaches the FIFO before the initial events end").isEmpty();
        stream.emit(new WatchEvent.Bookmark<>("10", Map.of("k8s.io/initial-events-end", "true")));
        await().until(() -> fifo.listKeys().size() == 2);
        stream.emit(new WatchEvent.Added<>(configMap("a", "three", "11")));
        await().until(() -> fifo.listKeys().size() == 3);
        assertThat(drain()).extracting(DeltaFifo.Deltas::key).containsExactly("a/one", "a/two", "a/three");
        assertThat(fifo.hasSynced()).isTrue();
        assertThat(server.pendingLists()).isEmpty();
    }

    @Test
    void aWatchEventTheTransformThrowsOnIsSkippedAndCountedAndTheSameWatchGoesOn() throws Exception {
        server.answerLists(options -> page("10", ""));
        SharedIndexInformerTest.RecordingMetrics metrics = new SharedIndexInformerTest.RecordingMetrics();
        start(listing(), failingOnVersion13(), metrics);
        server.nextList();
        OpenWatch<ConfigMap> watch = server.nextWatch();
        watch.emit(new WatchEvent.Added<>(configMap("a", "poison", "13")));
        watch.emit(new WatchEvent.Added<>(configMap("a", "good", "14")));
        // the event reaches the FIFO a moment before the reflector records its version
        await().until(() -> fifo.listKeys().contains("a/good") && reflector.lastSyncResourceVersion().equals("14"));
        assertThat(fifo.listKeys()).containsExactly("a/good");
        assertThat(reflector.lastSyncResourceVersion()).isEqualTo("14");
        assertThat(server.pendingWatches()).as("the watch was not reopened").isEmpty();
        assertThat(errors).as("a transform failure is not a watch failure").isEmpty();
        assertThat(metrics.processingErrors).containsExactly("configmaps transform");
    }

    @Test
    void aListedObjectTheTransformThrowsOnIsLeftOutAndKeepsItsCachedVersionInsteadOfATombstone() throws Exception {
        AtomicInteger lists = new AtomicInteger();
        server.answerLists(options -> lists.incrementAndGet() == 1
                ? page("10", "", configMap("a", "one", "5"), configMap("a", "two", "6"))
                : page("20", "", configMap("a", "one", "13"), configMap("a", "two", "14")));
        SharedIndexInformerTest.RecordingMetrics metrics = new SharedIndexInformerTest.RecordingMetrics();
        start(listing(), failingOnVersion13(), metrics);
        server.nextList();
        OpenWatch<ConfigMap> watch = server.nextWatch();
        drain();
        watch.emit(new WatchEvent.Error<>(new StatusBuilder().withCode(410).withReason("Expired").build()));
        server.nextList();
        server.nextWatch();
        List<DeltaFifo.Deltas<ConfigMap>> popped = drain();
        assertThat(popped).extracting(DeltaFifo.Deltas::key).containsExactly("a/two");
        assertThat(indexer.get("a/one")).get().extracting(c -> c.getMetadata().getResourceVersion()).isEqualTo("5");
        assertThat(metrics.processingErrors).containsExactly("configmaps transform");
    }

    @Test
    void aBookmarkBeforeTheEndOfAStreamingListsInitialEventsIsToleratedAndTheStreamGoesOn() throws Exception {
        // client-go's watch-list case with an initial-events-end annotation that is not "true": a
        // bookmark that does not end the initial events is not the end of streaming.
        start(ReflectorOptions.builder());
        OpenWatch<ConfigMap> stream = server.nextWatch();
        stream.emit(new WatchEvent.Added<>(configMap("a", "one", "5")));
        stream.emit(new WatchEvent.Bookmark<>("6", Map.of()));
        stream.emit(new WatchEvent.Bookmark<>("7", Map.of("k8s.io/initial-events-end", "false")));
        stream.emit(new WatchEvent.Added<>(configMap("a", "two", "8")));
        stream.emit(new WatchEvent.Bookmark<>("9", Map.of("k8s.io/initial-events-end", "true")));
        // the initial events reach the FIFO a moment before the reflector records the bookmark's version
        await().until(() -> fifo.listKeys().size() == 2 && reflector.lastSyncResourceVersion().equals("9"));
        assertThat(reflector.lastSyncResourceVersion()).isEqualTo("9");
        stream.close();
        OpenWatch<ConfigMap> next = server.nextWatch();
        assertThat(next.options().resourceVersion()).isEqualTo("9");
        assertThat(server.pendingLists()).as("no fallback to paginated lists").isEmpty();
        next.emit(new WatchEvent.Error<>(new StatusBuilder().withCode(410).withReason("Expired").build()));
        assertThat(server.nextWatch().options().sendInitialEvents()).as("still streaming after a 410").isTrue();
        assertThat(server.pendingLists()).isEmpty();
    }

    @Test
    void aServerThatRefusesStreamingListsIsListedFromThenOn() throws Exception {
        server.answerWatches(options -> Boolean.TRUE.equals(options.sendInitialEvents())
                ? Flux.error(status(422, "Invalid")) : null);
        server.answerLists(options -> page("10", "", configMap("a", "one", "5")));
        start(ReflectorOptions.builder());
        server.nextList();
        OpenWatch<ConfigMap> watch = server.nextWatch();
        assertThat(watch.options().sendInitialEvents()).isNull();
        watch.emit(new WatchEvent.Error<>(new StatusBuilder().withCode(410).withReason("Expired").build()));
        server.nextList();
        assertThat(server.nextWatch().options().sendInitialEvents()).as("no second streaming attempt").isNull();
    }

    @Test
    void aBackoffLastsUntilTheTimeSourcePassesIt() throws Exception {
        FakeTimeSource time = new FakeTimeSource();
        AtomicInteger lists = new AtomicInteger();
        server.answerLists(options -> {
            if (lists.incrementAndGet() == 1) {
                throw status(500, "InternalError");
            }
            return page("10", "");
        });
        reflector = new Reflector<>("configmaps", server, fifo, UnaryOperator.identity(),
                listing().initialBackoff(Duration.ofMinutes(1)).maxBackoff(Duration.ofMinutes(1)).timeSource(time)
                        .build(), ReflectorMetrics.NONE);
        thread = new Thread(reflector::run);
        thread.start();
        server.nextList();
        await().until(() -> reflector.state() instanceof ReflectorState.BackingOff);

        await().during(Duration.ofMillis(300)).until(() -> server.pendingLists().isEmpty());
        await().until(() -> time.hasWaiterWithin(Duration.ofMinutes(1))); // its backoff is under way
        time.advance(Duration.ofMinutes(1));

        assertThat(server.nextList().resourceVersion()).isNullOrEmpty();
        assertThat(server.nextWatch().options().resourceVersion()).isEqualTo("10");
    }

    @Test
    void stopDuringAWatchCancelsItAndEndsTheLoop() throws Exception {
        server.answerLists(options -> page("10", "", configMap("a", "one", "5")));
        start(listing());
        OpenWatch<ConfigMap> watch = server.nextWatch();
        await().until(reflector::isWatching);

        reflector.stop();
        thread.join(FakeListerWatcher.WAIT.toMillis());

        assertThat(thread.isAlive()).as("the reflector's loop ends").isFalse();
        assertThat(reflector.state()).isInstanceOf(ReflectorState.Stopped.class);
        assertThat(reflector.isWatching()).isFalse();
        assertThat(watch.sink().currentSubscriberCount()).as("the open watch is cancelled").isZero();
    }

    @Test
    void stopEndsTheLoopDuringABackoff() throws Exception {
        server.answerLists(options -> {
            throw status(500, "InternalError");
        });
        reflector = new Reflector<>("configmaps", server, fifo, UnaryOperator.identity(),
                listing().initialBackoff(Duration.ofMinutes(5)).maxBackoff(Duration.ofMinutes(5)).build(),
                ReflectorMetrics.NONE);
        thread = new Thread(reflector::run);
        thread.start();
        server.nextList();
        await().until(() -> reflector.state() instanceof ReflectorState.BackingOff);
        reflector.stop();
        thread.join(FakeListerWatcher.WAIT.toMillis());
        assertThat(thread.isAlive()).isFalse();
        assertThat(reflector.state()).isInstanceOf(ReflectorState.Stopped.class);
    }
}
