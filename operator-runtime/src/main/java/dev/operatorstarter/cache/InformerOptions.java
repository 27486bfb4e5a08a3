package dev.operatorstarter.cache;

import dev.operatorstarter.internal.DaemonThreads;
import dev.operatorstarter.internal.Durations;
import io.fabric8.kubernetes.api.model.HasMetadata;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.ThreadFactory;
import java.util.function.UnaryOperator;

/**
 * How informers cache and notify. Build with {@link #builder()}.
 *
 * @param resyncPeriod the resync period of handlers added without one; zero (the default) means
 *     no resync. A resync re-delivers every cached object to the handler as an update with equal
 *     old and new versions; it does not call the server
 * @param transform applied to every object before it is cached; default {@link Transforms#defaults()}
 *     (drops managedFields, shares repeated metadata strings); must return an object of the same class.
 *     An object it throws on is skipped (logged, counted as a processing error) and the cache
 *     keeps its previous version
 * @param reflector how the collection is listed and watched; its {@link ReflectorOptions#timeSource() timeSource}
 *     is the informer's too (handler resyncs); default {@link ReflectorOptions#defaults()}
 * @param metrics receives reflector and store metrics; default none
 * @param threadFactory makes the informer's threads (reflector, processor, one per handler, resync
 *     timer); default: daemon platform threads named after the informer. Pass a virtual-thread
 *     factory on Java 21+ to make handlers cheap.
 */
public record InformerOptions(Duration resyncPeriod, UnaryOperator<HasMetadata> transform, ReflectorOptions reflector,
        ReflectorMetrics metrics, ThreadFactory threadFactory) {

    public InformerOptions {
        Durations.requireNotNegative(resyncPeriod, "resyncPeriod");
        Objects.requireNonNull(transform, "transform");
        Objects.requireNonNull(reflector, "reflector");
        Objects.requireNonNull(metrics, "metrics");
        Objects.requireNonNull(threadFactory, "threadFactory");
    }

    public static InformerOptions defaults() {
        return builder().build();
    }

    public static Builder builder() {
        return new Builder();
    }

    public Builder toBuilder() {
        return new Builder().resyncPeriod(resyncPeriod).transform(transform).reflector(reflector).metrics(metrics)
                .threadFactory(threadFactory);
    }

    /** Builds {@link InformerOptions}; see the record for the defaults. */
    public static final class Builder {
        private Duration resyncPeriod = Duration.ZERO;
        private UnaryOperator<HasMetadata> transform = Transforms.defaults();
        private ReflectorOptions reflector = ReflectorOptions.defaults();
        private ReflectorMetrics metrics = ReflectorMetrics.NONE;
        private ThreadFactory threadFactory = DaemonThreads.factory("informer");

        private Builder() {
        }

        public Builder resyncPeriod(Duration resyncPeriod) {
            this.resyncPeriod = resyncPeriod;
            return this;
        }

        public Builder transform(UnaryOperator<HasMetadata> transform) {
            this.transform = transform;
            return this;
        }

        public Builder reflector(ReflectorOptions reflector) {
            this.reflector = reflector;
            return this;
        }

        public Builder metrics(ReflectorMetrics metrics) {
            this.metrics = metrics;
            return this;
        }

        public Builder threadFactory(ThreadFactory threadFactory) {
            this.threadFactory = threadFactory;
            return this;
        }

        public InformerOptions build() {
            return new InformerOptions(resyncPeriod, transform, reflector, metrics, threadFactory);
        }
    }
}
