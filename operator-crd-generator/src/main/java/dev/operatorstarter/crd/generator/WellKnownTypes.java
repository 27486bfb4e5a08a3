package dev.operatorstarter.crd.generator;

import static dev.operatorstarter.crd.generator.Schemas.BOOLEAN;
import static dev.operatorstarter.crd.generator.Schemas.INTEGER;
import static dev.operatorstarter.crd.generator.Schemas.NUMBER;
import static dev.operatorstarter.crd.generator.Schemas.OBJECT;
import static dev.operatorstarter.crd.generator.Schemas.STRING;
import static dev.operatorstarter.crd.generator.Schemas.typed;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.apiextensions.v1.JSONSchemaProps;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.net.URI;
import java.net.URL;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.OffsetTime;
import java.time.Period;
import java.time.ZonedDateTime;
import java.util.Date;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;
import tools.jackson.databind.node.StringNode;

/**
 * The types with a fixed schema: the JDK's scalars and times as the client's Jackson writes them
 * (ISO-8601 strings, not timestamps), Kubernetes' {@code IntOrString} and {@code Quantity}, JSON
 * trees, and an {@code ObjectMeta} inside a spec.
 */
final class WellKnownTypes {

    private static final Map<Class<?>, Supplier<JSONSchemaProps>> SCHEMAS = schemas();

    private WellKnownTypes() {
    }

    /** The fixed schema of {@code type}, a new node, or empty when the type has none. */
    static Optional<JSONSchemaProps> schemaOf(Class<?> type) {
        Supplier<JSONSchemaProps> schema = SCHEMAS.get(type);
        if (schema != null) {
            return Optional.of(schema.get());
        }
        if (JsonNode.class.isAssignableFrom(type)) { // value nodes, or JsonNode itself: any value
            return Optional.of(Schemas.anyValue());
        }
        return Optional.empty();
    }

    private static Map<Class<?>, Supplier<JSONSchemaProps>> schemas() {
        Map<Class<?>, Supplier<JSONSchemaProps>> schemas = new HashMap<>();
        for (Class<?> type : new Class<?>[] {String.class, CharSequence.class, char.class, Character.class, URI.class,
                URL.class, LocalDateTime.class, LocalTime.class, OffsetTime.class, Duration.class, Period.class,
                io.fabric8.kubernetes.api.model.Duration.class}) {
            schemas.put(type, () -> typed(STRING));
        }
        for (Class<?> type : new Class<?>[] {Instant.class, OffsetDateTime.class, ZonedDateTime.class, Date.class}) {
            schemas.put(type, () -> typed(STRING, "date-time"));
        }
        schemas.put(LocalDate.class, () -> typed(STRING, "date"));
        schemas.put(UUID.class, () -> typed(STRING, "uuid"));
        schemas.put(byte[].class, () -> typed(STRING, "byte")); // Jackson writes bytes in base64
        for (Class<?> type : new Class<?>[] {boolean.class, Boolean.class, AtomicBoolean.class}) {
            schemas.put(type, () -> typed(BOOLEAN));
        }
        for (Class<?> type : new Class<?>[] {byte.class, Byte.class, short.class, Short.class, int.class,
                Integer.class, AtomicInteger.class, OptionalInt.class}) {
            schemas.put(type, () -> typed(INTEGER, "int32"));
        }
        for (Class<?> type : new Class<?>[] {long.class, Long.class, AtomicLong.class, OptionalLong.class}) {
            schemas.put(type, () -> typed(INTEGER, "int64"));
        }
        schemas.put(BigInteger.class, () -> typed(INTEGER));
        schemas.put(float.class, () -> typed(NUMBER, "float"));
        schemas.put(Float.class, () -> typed(NUMBER, "float"));
        for (Class<?> type : new Class<?>[] {double.class, Double.class, OptionalDouble.class}) {
            schemas.put(type, () -> typed(NUMBER, "double"));
        }
        schemas.put(BigDecimal.class, () -> typed(NUMBER));
        schemas.put(Number.class, () -> typed(NUMBER));
        schemas.put(IntOrString.class, Schemas::intOrString);
        schemas.put(Quantity.class, Schemas::quantity);
        schemas.put(Object.class, Schemas::anyValue);
        schemas.put(ObjectNode.class, Schemas::anyObject);
        schemas.put(ArrayNode.class, () -> Schemas.arrayOf(Schemas.anyValue()));
        schemas.put(ObjectMeta.class, WellKnownTypes::embeddedObjectMeta);
        schemas.put(Condition.class, WellKnownTypes::condition);
        return Map.copyOf(schemas);
    }

    /**
     * The metadata of an object that the resource holds in its spec, such as a pod template's: the
     * fields an operator usually copies from it, so the server keeps them (an empty
     * {@code type: object} would have them pruned).
     */
    private static JSONSchemaProps embeddedObjectMeta() {
        JSONSchemaProps meta = typed(OBJECT);
        Map<String, JSONSchemaProps> properties = new LinkedHashMap<>();
        properties.put("annotations", Schemas.mapOf(typed(STRING)));
        properties.put("finalizers", Schemas.arrayOf(typed(STRING)));
        properties.put("labels", Schemas.mapOf(typed(STRING)));
        properties.put("name", typed(STRING));
        properties.put("namespace", typed(STRING));
        meta.setProperties(properties);
        return meta;
    }

    /**
     * A status condition (fabric8's {@code Condition}, which is Kubernetes' {@code metav1.Condition}):
     * with the bounds Kubernetes declares on that type (required fields, lengths, patterns, the three
     * statuses), so the API server refuses a malformed condition as it does for built-in resources.
     */
    private static JSONSchemaProps condition() {
        JSONSchemaProps condition = typed(OBJECT);
        Map<String, JSONSchemaProps> properties = new LinkedHashMap<>();
        properties.put("lastTransitionTime", typed(STRING, "date-time"));
        JSONSchemaProps message = typed(STRING);
        message.setMaxLength(32768L);
        properties.put("message", message);
        JSONSchemaProps observedGeneration = typed(INTEGER, "int64");
        observedGeneration.setMinimum(0.0);
        properties.put("observedGeneration", observedGeneration);
        JSONSchemaProps reason = typed(STRING);
        reason.setMinLength(1L);
        reason.setMaxLength(1024L);
        reason.setPattern("^[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?$");
        properties.put("reason", reason);
        JSONSchemaProps status = typed(STRING);
        status.setEnum(List.of(StringNode.valueOf("True"), StringNode.valueOf("False"), StringNode.valueOf("Unknown")));
        properties.put("status", status);
        JSONSchemaProps type = typed(STRING);
        type.setMaxLength(316L);
        type.setPattern("^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*/)?"
                + "(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])$");
        properties.put("type", type);
        condition.setProperties(properties);
        condition.setRequired(List.of("lastTransitionTime", "message", "reason", "status", "type"));
        return condition;
    }
}
