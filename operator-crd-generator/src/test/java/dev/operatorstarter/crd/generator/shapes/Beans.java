package dev.operatorstarter.crd.generator.shapes;

import com.fasterxml.jackson.annotation.JsonClassDescription;
import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import com.fasterxml.jackson.annotation.JsonValue;
import dev.operatorstarter.client.CustomResource;
import dev.operatorstarter.crd.SchemaFrom;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Version;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import java.util.Locale;

/**
 * Classes with fields and getters: the property names and descriptions are Jackson's, with the
 * constraints wherever Jackson finds the property (field, getter or setter).
 */
@Group(Shapes.GROUP)
@Version("v1")
@JsonClassDescription("Classes described the way Jackson writes them.")
public class Beans extends CustomResource<Beans.Spec, Beans.Status> implements Namespaced {

    @JsonClassDescription("A spec written as a class with getters and setters.")
    public static class Spec {
        @NotNull
        @JsonPropertyDescription("The display name, renamed in JSON.")
        @JsonProperty("displayName")
        private String name;
        @Min(1)
        private int size;
        private String secret;
        private Version version;
        private Locale locale;
        private Custom custom;

        public String getName() {
            return name;
        }

        public void setName(String name) {
            this.name = name;
        }

        @Max(100) // on the getter, @Min(1) on the field: both count
        public int getSize() {
            return size;
        }

        public void setSize(int size) {
            this.size = size;
        }

        @JsonIgnore
        public String getSecret() {
            return secret;
        }

        public void setSecret(String secret) {
            this.secret = secret;
        }

        @JsonPropertyDescription("Written through its @JsonValue.")
        public Version getVersion() {
            return version;
        }

        public Locale getLocale() {
            return locale;
        }

        @SchemaFrom(String.class)
        public Custom getCustom() {
            return custom;
        }

        /** Computed: a getter without a field is a property too. */
        public boolean isLarge() {
            return size > 50;
        }
    }

    /** A value class that Jackson writes as one string. */
    public record Version(int major, int minor) {
        @JsonValue
        public String text() {
            return major + "." + minor;
        }
    }

    /** Described by the property's @SchemaFrom rather than by its own properties. */
    public record Custom(String a, String b) {
    }

    public static class Status {
        private String phase;

        public String getPhase() {
            return phase;
        }

        /** Write-only: read from JSON but never written, so it is not part of the schema. */
        @JsonProperty(access = JsonProperty.Access.WRITE_ONLY)
        public String getIgnoredOnWrite() {
            return null;
        }
    }
}
