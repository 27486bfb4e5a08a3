package dev.operatorstarter.event;

import dev.operatorstarter.client.KubernetesClient;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectReference;
import io.fabric8.kubernetes.api.model.ObjectReferenceBuilder;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes the events of its {@link EventRecorder}s on one thread of its own (client-go's
 * {@code EventBroadcaster}).
 *
 * <p>Guarantees:
 * <ul>
 *   <li>Recording never blocks: events wait in a bounded queue; when it is full they are dropped
 *       and counted ({@link #dropped()}).</li>
 *   <li>Memory is bounded: the queue, the series cache and the spam filter hold at most their
 *       configured sizes.</li>
 *   <li>A repeat of an event (same object, type, reason, action and controller) within the series
 *       window of its last occurrence does not create another Event: the first Event's series
 *       count grows instead, written at most once per flush period and on {@link #close()}.</li>
 *   <li>Each object may cause a burst of new Events, then one per refill period (client-go's
 *       spam filter: 25, then one per 5 minutes); repeats joining a series do not count.</li>
 *   <li>A failed write is logged and dropped; the writer goes on.</li>
 * </ul>
 *
 * <p>Time: windows and periods are measured on the monotonic time of
 * {@link EventOptions#timeSource()}, so a step of the wall clock neither splits nor joins a
 * series; the timestamps written are its wall time. The writer looks for due series updates every
 * 200 ms of real time.
 */
public final class EventBroadcaster implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(EventBroadcaster.class);
    private static final int MAX_NOTE = 1024;
    private static final Duration CLOSE_TIMEOUT = Duration.ofSeconds(10);

    /** An occurrence waiting to be written, and when it happened on the monotonic clock. */
    private record Queued(Occurrence occurrence, long nanos) {
    }

    /** The Event written for a key, and how far its series has been written. */
    private static final class Series {
        final String namespace;
        final String name;
        int count = 1;
        int written = 1;
        /** Wall time, written to the server. */
        Instant lastObserved;
        long lastObservedNanos;
        long nextWriteNanos;

        Series(String namespace, String name, Queued first, Duration flushPeriod) {
            this.namespace = namespace;
            this.name = name;
            this.lastObserved = first.occurrence().time();
            this.lastObservedNanos = first.nanos();
            this.nextWriteNanos = first.nanos() + flushPeriod.toNanos();
        }
    }

    /** A token bucket per object. */
    private static final class Bucket {
        double tokens;
        long last;

        Bucket(double tokens, long last) {
            this.tokens = tokens;
            this.last = last;
        }
    }

    private final EventSink sink;
    private final EventOptions options;
    private final BlockingQueue<Queued> queue;
    private final Map<Occurrence.Key, Series> series;
    private final Map<String, Bucket> buckets;
    private final AtomicLong dropped = new AtomicLong();
    private final AtomicLong filtered = new AtomicLong();
    private final Object lifecycle = new Object();
    private volatile boolean closing;
    private @Nullable Thread writer;
    private boolean droppedBefore;
    private long lastDropWarning;

    /** A broadcaster writing through {@code client}. */
    public EventBroadcaster(KubernetesClient client, EventOptions options) {
        this(new ApiEventSink(Objects.requireNonNull(client, "client")), options);
    }

    EventBroadcaster(EventSink sink, EventOptions options) {
        this.sink = sink;
        this.options = Objects.requireNonNull(options, "options");
        this.queue = new ArrayBlockingQueue<>(options.queueCapacity());
        this.series = new LinkedHashMap<>(16, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<Occurrence.Key, Series> eldest) {
                if (size() <= options.cacheSize()) {
                    return false;
                }
                Series evicted = eldest.getValue();
                if (evicted.count > evicted.written) {
                    writeSeries(evicted, options.timeSource().nanoTime()); // forgotten, but not its count
                }
                return true;
            }
        };
        this.buckets = lru(options.cacheSize());
    }

    private static <K, V> Map<K, V> lru(int size) {
        return new LinkedHashMap<>(16, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<K, V> eldest) {
                return size() > size;
            }
        };
    }

    /** Starts the writer thread. */
    public void start() {
        synchronized (lifecycle) {
            if (writer != null) {
                throw new IllegalStateException("the event broadcaster was started already");
            }
            writer = options.threadFactory().newThread(this::run);
            writer.start();
        }
    }

    /** A recorder reporting as {@code reportingController} (for example {@code example.com/my-operator}). */
    public EventRecorder recorder(String reportingController) {
        if (reportingController == null || reportingController.isBlank()) {
            throw new IllegalArgumentException("reportingController must not be empty");
        }
        return (regarding, type, reason, action, note) -> record(regarding, type, reason, action, note,
                reportingController);
    }

    /** Events dropped because the queue was full or the broadcaster closed. */
    public long dropped() {
        return dropped.get();
    }

    /** New events dropped by the per-object spam filter. */
    public long filtered() {
        return filtered.get();
    }

    private void record(HasMetadata regarding, EventType type, String reason, String action, String note,
            String controller) {
        Objects.requireNonNull(regarding, "regarding");
        Objects.requireNonNull(type, "type");
        long nanos = options.timeSource().nanoTime();
        Occurrence occurrence = new Occurrence(reference(regarding), type, limit(reason, 128, "reason"),
                limit(action, 128, "action"), note == null ? "" : note.length() > MAX_NOTE ? note.substring(0, MAX_NOTE)
                        : note, controller, options.reportingInstance(), options.timeSource().now());
        if (closing || !queue.offer(new Queued(occurrence, nanos))) {
            long count = dropped.incrementAndGet();
            if (!droppedBefore || nanos - lastDropWarning > TimeUnit.MINUTES.toNanos(1)) {
                droppedBefore = true;
                lastDropWarning = nanos;
                log.warn("event queue full or closed: dropped event {} for {} ({} dropped so far)", reason,
                        regarding.getMetadata().getName(), count);
            }
        }
    }

    private static String limit(String value, int max, String what) {
        if (value == null || value.isEmpty()) {
            throw new IllegalArgumentException("an event needs a " + what);
        }
        return value.length() > max ? value.substring(0, max) : value;
    }

    private static ObjectReference reference(HasMetadata object) {
        return new ObjectReferenceBuilder().withApiVersion(object.getApiVersion()).withKind(object.getKind())
                .withNamespace(object.getMetadata().getNamespace()).withName(object.getMetadata().getName())
                .withUid(object.getMetadata().getUid()).withResourceVersion(object.getMetadata().getResourceVersion())
                .build();
    }

    private void run() {
        try {
            while (!closing || !queue.isEmpty()) {
                Queued next = queue.poll(200, TimeUnit.MILLISECONDS);
                if (next != null) {
                    write(next);
                }
                flush(false);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        flush(true);
    }

    private void write(Queued queued) {
        Occurrence occurrence = queued.occurrence();
        long now = queued.nanos();
        Occurrence.Key key = occurrence.key();
        Series existing = series.get(key);
        if (existing != null && now - existing.lastObservedNanos <= options.seriesWindow().toNanos()) {
            existing.count++;
            existing.lastObserved = occurrence.time();
            existing.lastObservedNanos = now;
            return;
        }
        if (existing != null && existing.count > existing.written) {
            writeSeries(existing, now); // the old series ends here; a new Event starts the next one
        }
        if (!allow(occurrence.objectKey(), now)) {
            filtered.incrementAndGet();
            log.debug("event {} for {} dropped by the spam filter", occurrence.reason(), occurrence.objectKey());
            return;
        }
        try {
            String name = sink.create(occurrence);
            series.put(key, new Series(occurrence.namespace(), name, queued, options.seriesFlushPeriod()));
        } catch (RuntimeException e) {
            log.warn("cannot write event {} for {} {}/{}: {}", occurrence.reason(), occurrence.regarding().getKind(),
                    occurrence.namespace(), occurrence.regarding().getName(), e.getMessage());
        }
    }

    private boolean allow(String object, long now) {
        Bucket bucket = buckets.get(object);
        if (bucket == null) {
            bucket = new Bucket(options.spamBurst(), now);
            buckets.put(object, bucket);
        }
        double refilled = (double) (now - bucket.last) / options.spamRefill().toNanos();
        bucket.tokens = Math.min(options.spamBurst(), bucket.tokens + Math.max(0, refilled));
        bucket.last = now;
        if (bucket.tokens < 1) {
            return false;
        }
        bucket.tokens -= 1;
        return true;
    }

    /** Writes series updates that are due (or all, when {@code all}). */
    private void flush(boolean all) {
        long now = options.timeSource().nanoTime();
        for (Series s : series.values()) {
            if (s.count > s.written && (all || now - s.nextWriteNanos >= 0)) {
                writeSeries(s, now);
            }
        }
    }

    private void writeSeries(Series s, long now) {
        try {
            sink.updateSeries(s.namespace, s.name, s.count, s.lastObserved);
            s.written = s.count;
        } catch (RuntimeException e) {
            log.warn("cannot update the series of event {}/{}: {}", s.namespace, s.name, e.getMessage());
        }
        s.nextWriteNanos = now + options.seriesFlushPeriod().toNanos();
    }

    /**
     * Stops accepting events, writes what is queued and every pending series update (up to 10 s),
     * then ends the writer thread.
     */
    @Override
    public void close() {
        closing = true;
        Thread running;
        synchronized (lifecycle) {
            running = writer;
        }
        if (running == null) {
            return;
        }
        try {
            running.join(CLOSE_TIMEOUT.toMillis());
            if (running.isAlive()) {
                running.interrupt();
                log.warn("the event writer did not finish in {}; {} events not written", CLOSE_TIMEOUT, queue.size());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
