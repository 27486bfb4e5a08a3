package dev.operatorstarter;

import static org.assertj.core.api.Assertions.assertThat;

import dev.operatorstarter.cache.InformerOptions;
import dev.operatorstarter.cache.ReflectorMetrics;
import dev.operatorstarter.client.rest.ClientOptions;
import dev.operatorstarter.client.rest.RequestMetrics;
import dev.operatorstarter.controller.ControllerMetrics;
import dev.operatorstarter.controller.ControllerOptions;
import dev.operatorstarter.leaderelection.LeaderMetrics;
import dev.operatorstarter.sharding.ShardingMetrics;
import dev.operatorstarter.sharding.ShardingOptions;
import dev.operatorstarter.workqueue.RateLimitingQueue;
import dev.operatorstarter.workqueue.WorkQueue;
import dev.operatorstarter.workqueue.WorkQueueMetrics;
import java.net.URL;
import java.net.URLClassLoader;
import java.time.Duration;
import java.util.concurrent.Callable;
import org.junit.jupiter.api.Test;

/**
 * Micrometer is an optional dependency: each metrics interface has a {@code micrometer(registry)}
 * factory, and the interfaces, their {@code NONE} and the options that default to it must work
 * when Micrometer is not on the class path.
 */
class MetricsWithoutMicrometerTest {

    @Test
    void theMetricsInterfacesAndTheDefaultOptionsWorkWithoutMicrometer() throws Exception {
        try (WithoutMicrometer loader = new WithoutMicrometer()) {
            assertThat(loader.call(UsesTheDefaults.class)).isEqualTo("done");
            assertThatMicrometerIsHidden(loader);
        }
    }

    private static void assertThatMicrometerIsHidden(ClassLoader loader) {
        try {
            loader.loadClass("io.micrometer.core.instrument.MeterRegistry");
            throw new AssertionError("Micrometer is visible: the test proves nothing");
        } catch (ClassNotFoundException expected) {
            // as it should be
        }
    }

    /** Runs in {@link WithoutMicrometer}: the runtime's own classes, loaded again, with Micrometer hidden. */
    public static final class UsesTheDefaults implements Callable<String> {
        @Override
        public String call() throws InterruptedException {
            RateLimitingQueue<String> queue = WorkQueue.<String>builder().name("plain").build();
            queue.add("a");
            queue.done(queue.get().orElseThrow());
            ReflectorMetrics.NONE.watchStarted("configmaps");
            RequestMetrics.NONE.requestCompleted("GET", "host", "200", Duration.ZERO);
            ControllerMetrics.NONE.started("plain", 1);
            WorkQueueMetrics.Recorder.NONE.added();
            LeaderMetrics.NONE.leading("plain", true);
            ShardingMetrics.NONE.shardObjects("plain", "plain", () -> 1);
            ShardingOptions.builder("plain", "replica-1", "ns").build();
            InformerOptions.defaults();
            ClientOptions.defaults();
            ControllerOptions.builder("plain").build();
            return "done";
        }
    }

    /**
     * Loads {@code dev.operatorstarter} classes itself (from the runtime's and these tests' class
     * directories), refuses {@code io.micrometer} but its observation API, and leaves everything
     * else to the test's loader.
     */
    private static final class WithoutMicrometer extends URLClassLoader {

        WithoutMicrometer() {
            super(new URL[] {location(ReflectorMetrics.class), location(MetricsWithoutMicrometerTest.class)},
                    MetricsWithoutMicrometerTest.class.getClassLoader());
        }

        @SuppressWarnings("unchecked")
        String call(Class<? extends Callable<String>> task) throws Exception {
            Class<?> isolated = loadClass(task.getName());
            assertThat(isolated.getClassLoader()).isSameAs(this);
            return ((Callable<String>) isolated.getConstructor().newInstance()).call();
        }

        @Override
        protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
            // micrometer-observation (and micrometer-commons under it) is not optional: Spring's
            // WebClient needs it, so it is wherever the runtime is; micrometer-core is optional
            if (name.startsWith("io.micrometer.") && !name.startsWith("io.micrometer.observation.")
                    && !name.startsWith("io.micrometer.common.")) {
                throw new ClassNotFoundException(name + " is hidden by this test");
            }
            if (!name.startsWith("dev.operatorstarter.")) {
                return super.loadClass(name, resolve);
            }
            synchronized (getClassLoadingLock(name)) {
                Class<?> loaded = findLoadedClass(name);
                if (loaded == null) {
                    loaded = findClass(name);
                }
                if (resolve) {
                    resolveClass(loaded);
                }
                return loaded;
            }
        }

        private static URL location(Class<?> type) {
            return type.getProtectionDomain().getCodeSource().getLocation();
        }
    }
}
