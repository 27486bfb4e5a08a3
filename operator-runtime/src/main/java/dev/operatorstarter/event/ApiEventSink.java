package dev.operatorstarter.event;

import dev.operatorstarter.client.KubernetesClient;
import dev.operatorstarter.client.rest.PatchType;
import io.fabric8.kubernetes.api.model.EventSourceBuilder;
import io.fabric8.kubernetes.api.model.MicroTime;
import io.fabric8.kubernetes.api.model.events.v1.Event;
import io.fabric8.kubernetes.api.model.events.v1.EventBuilder;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Writes to the API server: {@code events.k8s.io/v1} when it is served, else core/v1 Events with
 * their older fields (count, first and last timestamp), decided once from discovery.
 */
final class ApiEventSink implements EventSink {

    private static final DateTimeFormatter MICRO = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSSSSX")
            .withZone(ZoneOffset.UTC);
    private static final DateTimeFormatter SECONDS = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ssX")
            .withZone(ZoneOffset.UTC);

    private final KubernetesClient client;
    private final AtomicLong sequence = new AtomicLong();
    private volatile Boolean eventsV1;

    ApiEventSink(KubernetesClient client) {
        this.client = client;
    }

    private boolean eventsV1() {
        Boolean served = eventsV1;
        if (served == null) {
            served = client.discovery().findResource("events.k8s.io", "v1", "events").isPresent();
            eventsV1 = served;
        }
        return served;
    }

    /** client-go's naming: the object's name and a unique hexadecimal suffix. */
    private String name(Occurrence occurrence) {
        long unique = occurrence.time().getEpochSecond() * 1_000_000_000L + occurrence.time().getNano()
                + sequence.incrementAndGet();
        return occurrence.regarding().getName() + "." + Long.toHexString(unique);
    }

    @Override
    public String create(Occurrence occurrence) {
        String name = name(occurrence);
        if (eventsV1()) {
            Event event = new EventBuilder().withNewMetadata().withNamespace(occurrence.namespace()).withName(name)
                    .endMetadata()
                    .withRegarding(occurrence.regarding()).withType(occurrence.type().value())
                    .withReason(occurrence.reason()).withAction(occurrence.action()).withNote(occurrence.note())
                    .withReportingController(occurrence.reportingController())
                    .withReportingInstance(occurrence.reportingInstance())
                    .withEventTime(new MicroTime(MICRO.format(occurrence.time()))).build();
            client.resources(Event.class).inNamespace(occurrence.namespace()).create(event);
        } else {
            io.fabric8.kubernetes.api.model.Event event = new io.fabric8.kubernetes.api.model.EventBuilder()
                    .withNewMetadata().withNamespace(occurrence.namespace()).withName(name).endMetadata()
                    .withInvolvedObject(occurrence.regarding()).withType(occurrence.type().value())
                    .withReason(occurrence.reason()).withAction(occurrence.action()).withMessage(occurrence.note())
                    .withSource(new EventSourceBuilder().withComponent(occurrence.reportingController()).build())
                    .withReportingComponent(occurrence.reportingController())
                    .withReportingInstance(occurrence.reportingInstance()).withCount(1)
                    .withFirstTimestamp(SECONDS.format(occurrence.time()))
                    .withLastTimestamp(SECONDS.format(occurrence.time())).build();
            client.resources(io.fabric8.kubernetes.api.model.Event.class).inNamespace(occurrence.namespace())
                    .create(event);
        }
        return name;
    }

    @Override
    public void updateSeries(String namespace, String name, int count, Instant lastObserved) {
        if (eventsV1()) {
            client.resources(Event.class).inNamespace(namespace).patch(name, PatchType.MERGE,
                    Map.of("series", Map.of("count", count, "lastObservedTime", MICRO.format(lastObserved))));
        } else {
            client.resources(io.fabric8.kubernetes.api.model.Event.class).inNamespace(namespace).patch(name,
                    PatchType.MERGE, Map.of("count", count, "lastTimestamp", SECONDS.format(lastObserved)));
        }
    }
}
