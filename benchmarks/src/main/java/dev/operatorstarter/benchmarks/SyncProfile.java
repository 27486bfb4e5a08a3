package dev.operatorstarter.benchmarks;

import dev.operatorstarter.cache.InformerOptions;
import dev.operatorstarter.cache.InformerScope;
import dev.operatorstarter.cache.ReflectorOptions;
import dev.operatorstarter.cache.SharedIndexInformer;
import dev.operatorstarter.cache.SharedInformerFactory;
import dev.operatorstarter.client.KubernetesClient;
import dev.operatorstarter.client.config.KubeconfigLoader;
import dev.operatorstarter.client.rest.ListOptions;
import io.fabric8.kubernetes.api.model.ConfigMap;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import jdk.jfr.Configuration;
import jdk.jfr.Recording;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferUtils;

/**
 * Where the time of one sync goes, in a fresh JVM: our informer over one namespace of ConfigMaps,
 * with a streaming list or with a paginated one, while JFR records (its "profile" settings). Three
 * timings, in this order: the cold sync, as the scale curve measures it (from making the client
 * until the cache has synced; class loading and a cold JIT included); the same sync again in the same
 * JVM with a new client and informer (warm); and the same requests once more reading only bytes,
 * nothing decoded (what the server and the connection cost any client). The class-loading
 * figures are the VM's own counters for the cold sync. Prints {@code RESULT} and the numbers
 * {@link SyncBreakdown} reads, then writes the recording to {@code <recording>}.
 *
 * <p>Usage: {@code SyncProfile <streaming|paginated> <namespace> <kubeconfig> <expected objects> <recording>}.
 */
public final class SyncProfile {

    private static final Pattern CONTINUE = Pattern.compile("\"continue\":\"([^\"]+)\"");
    private static final int PAGE = 500;

    private SyncProfile() {
    }

    public static void main(String[] args) throws Exception {
        boolean streaming = switch (args[0]) {
            case "streaming" -> true;
            case "paginated" -> false;
            default -> throw new IllegalArgumentException("streaming or paginated, not " + args[0]);
        };
        String namespace = args[1];
        Path kubeconfig = Path.of(args[2]);
        int expected = Integer.parseInt(args[3]);
        Path recordingFile = Path.of(args[4]);
        try (Recording recording = new Recording(Configuration.getConfiguration("profile"))) {
            recording.start();
            ClassLoading loading = ClassLoading.now();
            Instant coldStart = Instant.now();
            long cold = sync(streaming, namespace, kubeconfig, expected);
            Instant coldEnd = Instant.now();
            ClassLoading loaded = ClassLoading.now().minus(loading);
            Instant warmStart = Instant.now();
            long warm = sync(streaming, namespace, kubeconfig, expected);
            Instant warmEnd = Instant.now();
            long[] bytes;
            try (KubernetesClient client = KubernetesClient.create(KubeconfigLoader.load(kubeconfig, null))) {
                bytes = streaming ? streamBytes(client, namespace) : pageBytes(client, namespace);
            }
            recording.stop();
            recording.dump(recordingFile);
            System.out.println("RESULT " + cold + " " + warm + " " + bytes[0] + " " + bytes[1] + " " + bytes[2] + " "
                    + loaded.millis() + " " + loaded.classes() + " " + micros(coldStart) + " " + micros(coldEnd) + " "
                    + micros(warmStart) + " " + micros(warmEnd));
        }
        System.out.flush();
        System.exit(0);
    }

    /** Microseconds since the epoch: the windows the recording's events are attributed to. */
    private static long micros(Instant instant) {
        return instant.getEpochSecond() * 1_000_000 + instant.getNano() / 1_000;
    }

    /** Milliseconds from making a client until a new informer has synced {@code expected} ConfigMaps. */
    private static long sync(boolean streaming, String namespace, Path kubeconfig, int expected) throws InterruptedException {
        long started = System.nanoTime();
        KubernetesClient client = KubernetesClient.create(KubeconfigLoader.load(kubeconfig, null));
        SharedInformerFactory factory = new SharedInformerFactory(client, InformerOptions.builder()
                .reflector(ReflectorOptions.builder().streamingList(streaming).build()).build());
        SharedIndexInformer<ConfigMap> informer = factory.informerFor(ConfigMap.class, InformerScope.namespace(namespace));
        factory.start();
        long deadline = started + Duration.ofMinutes(5).toNanos();
        while (!informer.hasSynced()) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("no sync within 5 minutes");
            }
            Thread.sleep(1);
        }
        long millis = Duration.ofNanos(System.nanoTime() - started).toMillis();
        if (informer.indexer().size() != expected) {
            throw new IllegalStateException("cached " + informer.indexer().size() + " ConfigMaps, not " + expected);
        }
        factory.close();
        client.close();
        return millis;
    }

    /**
     * The streaming list's bytes, up to the bookmark that ends the initial events: milliseconds to
     * the first byte and to that bookmark, and the bytes read.
     */
    private static long[] streamBytes(KubernetesClient client, String namespace) {
        long started = System.nanoTime();
        AtomicLong first = new AtomicLong();
        AtomicLong total = new AtomicLong();
        StreamSearch end = new StreamSearch("initial-events-end".getBytes(StandardCharsets.UTF_8));
        client.rest().get().groupVersion("", "v1").namespace(namespace).resource("configmaps").param("watch", "true")
                .options(ListOptions.builder().resourceVersionMatch("NotOlderThan").sendInitialEvents(true)
                        .allowWatchBookmarks(true).timeoutSeconds(300L).build())
                .stream().takeUntil(buffer -> {
                    first.compareAndSet(0, System.nanoTime());
                    total.addAndGet(buffer.readableByteCount());
                    return end.foundIn(buffer);
                }).doOnNext(DataBufferUtils::release).blockLast();
        return new long[] {millis(started, first.get()), millis(started, System.nanoTime()), total.get()};
    }

    /** The paginated list's bytes, page by page ({@value #PAGE} objects each), as {@link #streamBytes}. */
    private static long[] pageBytes(KubernetesClient client, String namespace) {
        long started = System.nanoTime();
        long first = 0;
        long total = 0;
        String token = null;
        do {
            byte[] page = client.rest().get().groupVersion("", "v1").namespace(namespace).resource("configmaps")
                    .options(ListOptions.builder().limit(PAGE).continueToken(token).build()).bytes();
            if (first == 0) {
                first = System.nanoTime();
            }
            total += page.length;
            Matcher next = CONTINUE.matcher(new String(page, 0, Math.min(page.length, 4096), StandardCharsets.UTF_8));
            token = next.find() ? next.group(1) : null;
        } while (token != null);
        return new long[] {millis(started, first), millis(started, System.nanoTime()), total};
    }

    private static long millis(long from, long to) {
        return Duration.ofNanos(to - from).toMillis();
    }

    /**
     * Finds {@code needle} in a stream of buffers, also where it spans two of them: each buffer is
     * read in place after the last {@code needle.length - 1} bytes of the ones before.
     */
    static final class StreamSearch {
        private final byte[] needle;
        private byte[] tail = new byte[0];

        StreamSearch(byte[] needle) {
            this.needle = needle;
        }

        boolean foundIn(DataBuffer buffer) {
            int start = buffer.readPosition();
            int length = tail.length + buffer.readableByteCount();
            outer:
            for (int i = 0; i + needle.length <= length; i++) {
                for (int j = 0; j < needle.length; j++) {
                    int k = i + j;
                    byte b = k < tail.length ? tail[k] : buffer.getByte(start + k - tail.length);
                    if (b != needle[j]) {
                        continue outer;
                    }
                }
                return true;
            }
            int keep = Math.min(needle.length - 1, length);
            byte[] next = new byte[keep];
            for (int k = length - keep; k < length; k++) {
                next[k - (length - keep)] = k < tail.length ? tail[k] : buffer.getByte(start + k - tail.length);
            }
            tail = next;
            return false;
        }
    }

    /**
     * The VM's class-loading counters (HotSpot's {@code sun.cls.time}, through its management
     * bean, which needs {@code --add-exports java.management/sun.management=ALL-UNNAMED}).
     */
    record ClassLoading(long millis, long classes) {
        static ClassLoading now() {
            long classes = ManagementFactory.getClassLoadingMXBean().getTotalLoadedClassCount();
            try {
                Object bean = Class.forName("sun.management.ManagementFactoryHelper")
                        .getMethod("getHotspotClassLoadingMBean").invoke(null);
                long millis = (long) Class.forName("sun.management.HotspotClassLoadingMBean")
                        .getMethod("getClassLoadingTime").invoke(bean);
                return new ClassLoading(millis, classes);
            } catch (ReflectiveOperationException | RuntimeException e) {
                return new ClassLoading(-1, classes);
            }
        }

        ClassLoading minus(ClassLoading before) {
            return new ClassLoading(millis < 0 ? -1 : millis - before.millis, classes - before.classes);
        }
    }
}
