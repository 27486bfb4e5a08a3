package dev.operatorstarter.crd.generator.shapes;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonValue;
import dev.operatorstarter.client.CustomResource;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Version;
import java.util.List;

/** Enums, with the names Jackson writes for their constants. */
@Group(Shapes.GROUP)
@Version("v1")
public class Enums extends CustomResource<Enums.Spec, Void> implements Namespaced {

    public record Spec(Phase phase, Protocol protocol, Level level, List<Phase> phases) {
    }

    public enum Phase {
        PENDING, RUNNING, DONE
    }

    /** Renamed constants. */
    public enum Protocol {
        @JsonProperty("TCP") TCP,
        @JsonProperty("http/1.1") HTTP_1_1,
        @JsonProperty("h2") HTTP_2
    }

    /** Constants written through {@code @JsonValue}, as integers. */
    public enum Level {
        LOW(1), HIGH(10);

        private final int value;

        Level(int value) {
            this.value = value;
        }

        @JsonValue
        public int value() {
            return value;
        }
    }
}
