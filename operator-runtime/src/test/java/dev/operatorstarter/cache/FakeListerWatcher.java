package dev.operatorstarter.cache;

import static org.assertj.core.api.Assertions.assertThat;

import dev.operatorstarter.client.ResourceList;
import dev.operatorstarter.client.rest.ListOptions;
import dev.operatorstarter.client.rest.WatchEvent;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.ListMetaBuilder;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Sinks;

/**
 * A scripted list and watch for reflector and informer tests: lists answer from {@link #lister},
 * each watch is a sink the test drives. Requests are recorded.
 */
final class FakeListerWatcher implements ListerWatcher<ConfigMap> {

    static final Duration WAIT = Duration.ofSeconds(10);

    /** One opened watch: its options and the sink that feeds it. */
    record OpenWatch(ListOptions options, Sinks.Many<WatchEvent<ConfigMap>> sink) {
        void emit(WatchEvent<ConfigMap> event) {
            assertThat(sink.tryEmitNext(event).isSuccess()).as("emit " + event).isTrue();
        }

        void close() {
            sink.tryEmitComplete();
        }

        void fail(Throwable error) {
            sink.tryEmitError(error);
        }
    }

    final BlockingQueue<ListOptions> lists = new LinkedBlockingQueue<>();
    final BlockingQueue<OpenWatch> watches = new LinkedBlockingQueue<>();
    volatile Function<ListOptions, ResourceList<ConfigMap>> lister = options -> page("1", "");
    volatile Function<ListOptions, Flux<WatchEvent<ConfigMap>>> watchOverride;

    @Override
    public ResourceList<ConfigMap> list(ListOptions options) {
        lists.add(options);
        return lister.apply(options);
    }

    @Override
    public Flux<WatchEvent<ConfigMap>> watch(ListOptions options) {
        Function<ListOptions, Flux<WatchEvent<ConfigMap>>> override = watchOverride;
        if (override != null) {
            Flux<WatchEvent<ConfigMap>> flux = override.apply(options);
            if (flux != null) {
                return flux;
            }
        }
        Sinks.Many<WatchEvent<ConfigMap>> sink = Sinks.many().unicast().onBackpressureBuffer();
        return sink.asFlux().doOnSubscribe(s -> watches.add(new OpenWatch(options, sink)));
    }

    ListOptions nextList() throws InterruptedException {
        ListOptions options = lists.poll(WAIT.toMillis(), TimeUnit.MILLISECONDS);
        assertThat(options).as("a list request within " + WAIT).isNotNull();
        return options;
    }

    OpenWatch nextWatch() throws InterruptedException {
        OpenWatch watch = watches.poll(WAIT.toMillis(), TimeUnit.MILLISECONDS);
        assertThat(watch).as("a watch request within " + WAIT).isNotNull();
        return watch;
    }

    static ResourceList<ConfigMap> page(String resourceVersion, String continueToken, ConfigMap... items) {
        return new ResourceList<>("v1", "ConfigMapList",
                new ListMetaBuilder().withResourceVersion(resourceVersion).withContinue(continueToken).build(),
                List.of(items));
    }

    static ConfigMap configMap(String namespace, String name, String resourceVersion) {
        return new ConfigMapBuilder().withNewMetadata().withNamespace(namespace).withName(name)
                .withResourceVersion(resourceVersion).endMetadata().build();
    }
}
