package dev.operatorstarter.sharding;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.IntSupplier;
import java.util.stream.LongStream;

/**
 * {@link ShardingMetrics} on Micrometer, with these Prometheus names:
 * {@code controller_sharding_member_status{ring}}, {@code controller_sharding_drain_acks_total{ring,resource}},
 * {@code controller_sharding_objects{ring,controller}}, {@code controller_sharding_members{ring,state}},
 * {@code controller_sharding_assignments_total}, {@code controller_sharding_movements_total},
 * {@code controller_sharding_drains_total} (each {@code {ring,resource}}),
 * {@code controller_sharding_handover_duration_seconds{ring}}, {@code controller_sharding_pending_drains{ring}}
 * and {@code controller_sharding_unassigned_objects{ring,resource}}. Needs micrometer-core.
 *
 * <p>The handover duration is a histogram with the boundaries {@link #HANDOVER_BUCKETS} (25 ms to
 * 5 minutes), so {@code histogram_quantile} over its {@code _bucket} series works. A handover is a
 * drain request, the shard's reconcile that acknowledges it, and the assigner's write of the new
 * token: tens of milliseconds when the shard's queue is short, seconds when it is busy, up to the
 * lease duration (default 15 s) and beyond when its workers are stuck. controller-runtime's
 * reconcile buckets (40 of them, 5 ms to 60 s) stop below what a stuck shard's handover takes and
 * spend 40 series per ring on a rare event; 14 suffice. A {@code MeterFilter} may replace them
 * (Spring Boot's {@code management.metrics.distribution.slo.controller.sharding.handover.duration}).
 *
 * <p>The pushed gauges hold their value in this sink; the pulled one ({@link #shardObjects}) holds
 * its supplier here, strongly, so Micrometer's weak reference never lets it be collected.
 */
final class MicrometerShardingMetrics implements ShardingMetrics {

    /** The 14 boundaries of {@code controller_sharding_handover_duration_seconds}: 25 ms to 5 minutes. */
    static final Duration[] HANDOVER_BUCKETS = LongStream.of(25, 50, 100, 250, 500, 1_000, 2_500, 5_000, 10_000, 15_000,
            30_000, 60_000, 120_000, 300_000).mapToObj(Duration::ofMillis).toArray(Duration[]::new);

    private static final String RING = "ring";
    private static final String RESOURCE = "resource";

    /** A gauge's identity: its name and tags. */
    private record Key(String name, Tags tags) {
    }

    private final MeterRegistry registry;
    private final Map<Key, AtomicInteger> pushed = new ConcurrentHashMap<>();
    private final Map<Key, AtomicReference<IntSupplier>> pulled = new ConcurrentHashMap<>();

    MicrometerShardingMetrics(MeterRegistry registry) {
        this.registry = registry;
    }

    @Override
    public void member(String ring, boolean inTerm) {
        gauge("controller.sharding.member.status",
                "1 while this replica's member term in the ring is valid, 0 otherwise.", Tags.of(RING, ring))
                .set(inTerm ? 1 : 0);
    }

    @Override
    public void drainAcknowledged(String ring, String resource) {
        counter("controller.sharding.drain.acks", "Drains this replica's shard acknowledged, letting an object go.",
                ring, resource).increment();
    }

    @Override
    public void shardObjects(String ring, String controller, IntSupplier objects) {
        Key key = new Key("controller.sharding.objects", Tags.of(RING, ring, "controller", controller));
        pulled.computeIfAbsent(key, k -> {
            AtomicReference<IntSupplier> holder = new AtomicReference<>(objects);
            Gauge.builder(k.name(), holder, current -> current.get().getAsInt()).strongReference(true)
                    .description("Objects in the primary cache of this replica's sharded controller: its share.")
                    .tags(k.tags()).register(registry);
            return holder;
        }).set(objects);
    }

    @Override
    public void members(String ring, Map<MemberState, Integer> byState) {
        byState.forEach((state, count) -> gauge("controller.sharding.members",
                "Members of the ring in each state, as the assigner judges them (0 on replicas that do not assign).",
                Tags.of(RING, ring, "state", state.name().toLowerCase(Locale.ROOT))).set(count));
    }

    @Override
    public void assigned(String ring, String resource) {
        counter("controller.sharding.assignments",
                "Objects without a token given a shard, and children labelled with their owner's shard.", ring,
                resource).increment();
    }

    @Override
    public void moved(String ring, String resource) {
        counter("controller.sharding.movements", "Objects forced off a shard that is gone.", ring, resource)
                .increment();
    }

    @Override
    public void drainRequested(String ring, String resource) {
        counter("controller.sharding.drains", "Objects whose shard was asked to let them go.", ring, resource)
                .increment();
    }

    @Override
    public void handedOver(String ring, Duration duration) {
        Timer.builder("controller.sharding.handover.duration")
                .description("From the assigner's drain request to the object's new token.")
                .tag(RING, ring).serviceLevelObjectives(HANDOVER_BUCKETS).register(registry).record(duration);
    }

    @Override
    public void pendingDrains(String ring, int objects) {
        gauge("controller.sharding.pending.drains", "Objects whose drain is requested and not yet acknowledged.",
                Tags.of(RING, ring)).set(objects);
    }

    @Override
    public void unassigned(String ring, String resource, int objects) {
        gauge("controller.sharding.unassigned.objects", "Primary objects without a token, waiting for a member.",
                Tags.of(RING, ring, RESOURCE, resource)).set(objects);
    }

    private AtomicInteger gauge(String name, String description, Tags tags) {
        return pushed.computeIfAbsent(new Key(name, tags), key -> {
            AtomicInteger value = new AtomicInteger();
            Gauge.builder(name, value, AtomicInteger::get).strongReference(true).description(description).tags(tags)
                    .register(registry);
            return value;
        });
    }

    private Counter counter(String name, String description, String ring, String resource) {
        return Counter.builder(name).description(description).tag(RING, ring).tag(RESOURCE, resource)
                .register(registry);
    }
}
