package dev.operatorstarter.crd.generator.shapes;

import dev.operatorstarter.client.CustomResource;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Version;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZonedDateTime;
import java.util.Date;

/** Times as the client's Jackson writes them: ISO-8601 strings. */
@Group(Shapes.GROUP)
@Version("v1")
public class Times extends CustomResource<Times.Spec, Void> implements Namespaced {

    public record Spec(Instant at, OffsetDateTime offset, ZonedDateTime zoned, Date legacy, LocalDate day,
            LocalDateTime local, Duration timeout, io.fabric8.kubernetes.api.model.Duration kubernetesDuration) {
    }
}
