package dev.operatorstarter.test.faults;

import java.nio.file.Path;
import java.util.Objects;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;
import org.jspecify.annotations.Nullable;

/**
 * How a {@link FaultProxy} runs.
 *
 * @param folder where the proxy writes its kubeconfig files; {@code null} (the default) for a new
 *        temporary folder that {@link FaultProxy#close()} deletes. A folder given here is created if
 *        missing and left in place.
 * @param threadFactory makes the accept thread and one thread per client connection; the default
 *        makes daemon platform threads named {@code fault-proxy-<n>}
 */
public record FaultProxyOptions(@Nullable Path folder, ThreadFactory threadFactory) {

    public FaultProxyOptions {
        Objects.requireNonNull(threadFactory, "threadFactory");
    }

    /** A temporary folder and daemon platform threads. */
    public static FaultProxyOptions defaults() {
        return builder().build();
    }

    public static Builder builder() {
        return new Builder();
    }

    /** Builds {@link FaultProxyOptions}; every field starts at its default. */
    public static final class Builder {

        private @Nullable Path folder;
        private @Nullable ThreadFactory threadFactory;

        private Builder() {
        }

        /** See {@link FaultProxyOptions#folder()}. */
        public Builder folder(Path folder) {
            this.folder = Objects.requireNonNull(folder, "folder");
            return this;
        }

        /** See {@link FaultProxyOptions#threadFactory()}. */
        public Builder threadFactory(ThreadFactory threadFactory) {
            this.threadFactory = Objects.requireNonNull(threadFactory, "threadFactory");
            return this;
        }

        public FaultProxyOptions build() {
            return new FaultProxyOptions(folder, threadFactory != null ? threadFactory : daemonThreads());
        }

        private static ThreadFactory daemonThreads() {
            AtomicInteger count = new AtomicInteger();
            return task -> {
                Thread thread = new Thread(task, "fault-proxy-" + count.incrementAndGet());
                thread.setDaemon(true);
                return thread;
            };
        }
    }
}
