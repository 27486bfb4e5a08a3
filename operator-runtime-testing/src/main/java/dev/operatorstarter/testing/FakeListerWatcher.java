package dev.operatorstarter.testing;

import dev.operatorstarter.cache.ListerWatcher;
import dev.operatorstarter.client.ResourceList;
import dev.operatorstarter.client.rest.ListOptions;
import dev.operatorstarter.client.rest.WatchEvent;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ListMetaBuilder;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Sinks;

/**
 * A scripted {@link ListerWatcher}: the API server of a reflector or informer under test
 * ({@code SharedIndexInformer.create(name, fake, type, options)}), without a server.
 *
 * <p>Behaviour:
 * <ul>
 *   <li>A list answers what the function given to {@link #answerLists} returns for its options
 *       (by default an empty {@link #page} at resourceVersion {@code "1"}); what the function throws,
 *       the list throws, as a failed request would.</li>
 *   <li>A watch is the Flux the function given to {@link #answerWatches} returns; where there is
 *       none, or it returns null, a watch the test drives: it is recorded when subscribed, and
 *       {@link #nextWatch()} hands it over to {@link OpenWatch#emit emit} events into, {@link
 *       OpenWatch#close() close} or {@link OpenWatch#fail fail}. Events emitted before the watcher
 *       reads them are buffered.</li>
 *   <li>Every list request and every opened watch is recorded, in order, until the test takes it
 *       ({@link #nextList()}, {@link #nextWatch()}); {@link #pendingLists()} and
 *       {@link #pendingWatches()} show those not taken yet, so a test can assert that nothing
 *       more was asked.</li>
 * </ul>
 *
 * <p>Threading: thread-safe. The reflector calls {@link #list} and {@link #watch} on its own
 * thread while the test scripts and inspects from another; {@link #nextList()} and
 * {@link #nextWatch()} wait up to {@link #WAIT} for the request to arrive and fail the test
 * (an {@link AssertionError}) if it does not.
 *
 * @param <T> the type of the listed and watched objects
 */
public final class FakeListerWatcher<T extends HasMetadata> implements ListerWatcher<T> {

    /** How long {@link #nextList()} and {@link #nextWatch()} wait for a request: 10 s. */
    public static final Duration WAIT = Duration.ofSeconds(10);

    /**
     * One opened watch: the options it was opened with and the sink that feeds it.
     *
     * @param <T> the type of the watched objects
     */
    public record OpenWatch<T>(ListOptions options, Sinks.Many<WatchEvent<T>> sink) {

        /** Delivers {@code event} to the watcher; fails the test if the watch has ended. */
        public void emit(WatchEvent<T> event) {
            Sinks.EmitResult result = sink.tryEmitNext(event);
            if (result.isFailure()) {
                throw new AssertionError("cannot emit " + event + ": " + result);
            }
        }

        /** Ends the watch normally, as the server does at the watch's timeout. */
        public void close() {
            sink.tryEmitComplete();
        }

        /** Ends the watch with {@code error}, as a dropped connection or a failed decode does. */
        public void fail(Throwable error) {
            sink.tryEmitError(error);
        }
    }

    private final BlockingQueue<ListOptions> lists = new LinkedBlockingQueue<>();
    private final BlockingQueue<OpenWatch<T>> watches = new LinkedBlockingQueue<>();
    private volatile Function<ListOptions, ResourceList<T>> lister = options -> page("1", "");
    private volatile Function<ListOptions, @Nullable Flux<WatchEvent<T>>> watcher = options -> null;

    /** Lists answer with {@code lister}'s page for their options, from now on. */
    public void answerLists(Function<ListOptions, ResourceList<T>> lister) {
        this.lister = Objects.requireNonNull(lister, "lister");
    }

    /**
     * Watches answer with {@code watcher}'s Flux for their options, from now on; where it returns
     * null, with a watch the test drives ({@link #nextWatch()}). Such a Flux is not recorded.
     */
    public void answerWatches(Function<ListOptions, @Nullable Flux<WatchEvent<T>>> watcher) {
        this.watcher = Objects.requireNonNull(watcher, "watcher");
    }

    @Override
    public ResourceList<T> list(ListOptions options) {
        lists.add(options);
        return lister.apply(options);
    }

    @Override
    public Flux<WatchEvent<T>> watch(ListOptions options) {
        Flux<WatchEvent<T>> answered = watcher.apply(options);
        if (answered != null) {
            return answered;
        }
        Sinks.Many<WatchEvent<T>> sink = Sinks.many().unicast().onBackpressureBuffer();
        return sink.asFlux().doOnSubscribe(s -> watches.add(new OpenWatch<>(options, sink)));
    }

    /** Takes the oldest list request not taken yet, waiting up to {@link #WAIT} for one. */
    public ListOptions nextList() throws InterruptedException {
        ListOptions options = lists.poll(WAIT.toMillis(), TimeUnit.MILLISECONDS);
        if (options == null) {
            throw new AssertionError("no list request within " + WAIT);
        }
        return options;
    }

    /** Takes the oldest opened watch not taken yet, waiting up to {@link #WAIT} for one. */
    public OpenWatch<T> nextWatch() throws InterruptedException {
        OpenWatch<T> watch = watches.poll(WAIT.toMillis(), TimeUnit.MILLISECONDS);
        if (watch == null) {
            throw new AssertionError("no watch request within " + WAIT);
        }
        return watch;
    }

    /** The list requests not taken by {@link #nextList()} yet, oldest first. */
    public List<ListOptions> pendingLists() {
        return List.copyOf(lists);
    }

    /** The opened watches not taken by {@link #nextWatch()} yet, oldest first. */
    public List<OpenWatch<T>> pendingWatches() {
        return List.copyOf(watches);
    }

    /**
     * A server that lists {@code objects} at resourceVersion {@code "1"}, every time, and whose
     * watches stay open until the test drives them ({@link #nextWatch()}): the informer of a
     * controller under test, fed from memory.
     */
    public static <T extends HasMetadata> FakeListerWatcher<T> listing(List<T> objects) {
        List<T> fixed = List.copyOf(objects);
        FakeListerWatcher<T> fake = new FakeListerWatcher<>();
        fake.answerLists(options -> new ResourceList<>("v1", "List",
                new ListMetaBuilder().withResourceVersion("1").withContinue("").build(), fixed));
        return fake;
    }

    /**
     * One page of a list: the list's {@code resourceVersion}, the token of the next page
     * ({@code ""} on the last page) and the items.
     */
    @SafeVarargs
    public static <T> ResourceList<T> page(String resourceVersion, String continueToken, T... items) {
        return new ResourceList<>("v1", "List",
                new ListMetaBuilder().withResourceVersion(resourceVersion).withContinue(continueToken).build(),
                List.of(items));
    }
}
