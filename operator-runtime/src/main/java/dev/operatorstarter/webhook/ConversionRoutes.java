package dev.operatorstarter.webhook;

import dev.operatorstarter.internal.Json;
import io.fabric8.kubernetes.api.model.HasMetadata;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;

/**
 * The versions of one kind and how to get from each to each: a direct converter (either
 * direction), else two steps through the hub. Built and checked once; read-only afterwards.
 */
final class ConversionRoutes {

    /** What a Failure says of a converter that threw: the failure itself goes to the log only. */
    static final String CONVERTER_FAILED = "the converter threw; the webhook server's log has the error";

    /** One converter as registered, with the classes it joins. */
    record Registration<A extends HasMetadata, B extends HasMetadata>(Class<A> first, Class<B> second,
            Converter<A, B> converter) {

        Step forward() {
            return source -> converter.convert(first.cast(source));
        }

        Step backward() {
            return source -> converter.convertBack(second.cast(source));
        }
    }

    /** One conversion step between two classes. */
    @FunctionalInterface
    interface Step {
        HasMetadata apply(HasMetadata source) throws Exception;
    }

    /** Why an object cannot be converted: the message for a Failure. */
    static final class Unconvertible extends Exception {
        private static final long serialVersionUID = 1L;

        Unconvertible(String message, @Nullable Throwable cause) {
            super(message, cause);
        }
    }

    private final String group;
    private final String kind;
    private final Map<String, Class<? extends HasMetadata>> classes = new LinkedHashMap<>();
    /** Keyed by "from>to" API versions. */
    private final Map<String, Step> steps = new LinkedHashMap<>();
    private final @Nullable String hub;

    ConversionRoutes(List<Registration<?, ?>> registrations, @Nullable Class<? extends HasMetadata> hubClass) {
        if (registrations.isEmpty()) {
            throw new IllegalArgumentException("a conversion endpoint needs at least one converter");
        }
        Class<?> firstClass = registrations.get(0).first();
        this.group = groupOf(firstClass);
        this.kind = HasMetadata.getKind(firstClass);
        for (Registration<?, ?> registration : registrations) {
            String from = register(registration.first());
            String to = register(registration.second());
            if (from.equals(to)) {
                throw new IllegalArgumentException("the converter " + registration.converter() + " joins " + from
                        + " to itself (" + registration.first().getName() + ", " + registration.second().getName() + ")");
            }
            if (steps.containsKey(from + ">" + to) || steps.containsKey(to + ">" + from)) {
                throw new IllegalArgumentException("two converters join " + from + " and " + to + "; keep one");
            }
            steps.put(from + ">" + to, registration.forward());
            steps.put(to + ">" + from, registration.backward());
        }
        if (hubClass != null) {
            String hubVersion = HasMetadata.getApiVersion(hubClass);
            if (!classes.containsKey(hubVersion) || classes.get(hubVersion) != hubClass) {
                throw new IllegalArgumentException("the hub " + hubClass.getName() + " is not one of the versions "
                        + "the converters join: " + classes.keySet());
            }
            List<String> unjoined = new ArrayList<>();
            for (String version : classes.keySet()) {
                if (!version.equals(hubVersion) && !steps.containsKey(version + ">" + hubVersion)) {
                    unjoined.add(version);
                }
            }
            if (!unjoined.isEmpty()) {
                throw new IllegalArgumentException("the hub " + hubVersion + " has no converter with " + unjoined);
            }
            this.hub = hubVersion;
        } else {
            this.hub = null;
        }
    }

    Set<String> versions() {
        return java.util.Collections.unmodifiableSet(classes.keySet());
    }

    String kind() {
        return kind;
    }

    /** {@code object} (JSON as sent) in {@code desired}; see {@link ConversionEndpoint} for what is kept. */
    JsonNode convert(JsonNode object, String desired) throws Unconvertible {
        String version = object.path("apiVersion").asString("");
        String objectKind = object.path("kind").asString("");
        String name = describe(object);
        if (!kind.equals(objectKind)) {
            throw new Unconvertible(name + " is a " + (objectKind.isEmpty() ? "(kind missing)" : objectKind)
                    + ", this webhook converts " + kind + " of " + group, null);
        }
        Class<? extends HasMetadata> targetClass = classes.get(desired);
        if (targetClass == null) {
            throw new Unconvertible("no class for the desired version " + desired + " of " + kind + "; this webhook "
                    + "converts between " + classes.keySet(), null);
        }
        if (version.equals(desired)) {
            return object;
        }
        Class<? extends HasMetadata> sourceClass = classes.get(version);
        if (sourceClass == null) {
            throw new Unconvertible(name + " is in " + version + ", which this webhook does not convert (it converts "
                    + classes.keySet() + ")", null);
        }
        List<String> route = route(version, desired, name);
        HasMetadata current;
        try {
            current = Json.MAPPER.treeToValue(object, sourceClass);
        } catch (JacksonException | IllegalArgumentException e) {
            throw new Unconvertible(name + " cannot be decoded into " + sourceClass.getName() + ": "
                    + (e instanceof JacksonException jackson ? jackson.getOriginalMessage() : e.getMessage()), e);
        }
        for (int i = 1; i < route.size(); i++) {
            String from = route.get(i - 1);
            String to = route.get(i);
            try {
                current = Objects.requireNonNull(steps.get(from + ">" + to).apply(current), "the converter returned null");
            } catch (Throwable e) { // any Error too (Kotlin's TODO()); its text goes to the log only
                throw new Unconvertible("converting " + name + " from " + from + " to " + to + " failed: "
                        + CONVERTER_FAILED, e);
            }
            Class<? extends HasMetadata> expected = classes.get(to);
            if (!expected.isInstance(current)) {
                throw new Unconvertible("converting " + name + " from " + from + " to " + to + " returned a "
                        + current.getClass().getName() + ", not a " + expected.getName(), null);
            }
        }
        return ConvertedObject.of(object, Json.MAPPER.valueToTree(current), desired, kind);
    }

    private List<String> route(String from, String to, String name) throws Unconvertible {
        if (steps.containsKey(from + ">" + to)) {
            return List.of(from, to);
        }
        if (hub != null && steps.containsKey(from + ">" + hub) && steps.containsKey(hub + ">" + to)) {
            return List.of(from, hub, to);
        }
        throw new Unconvertible("no converter from " + from + " to " + to + " for " + name
                + (hub == null ? ": register a converter between them, or declare a hub version that both convert with"
                        : ": both need a converter with the hub " + hub), null);
    }

    private String register(Class<? extends HasMetadata> type) {
        String version = HasMetadata.getVersion(type);
        if (version == null) {
            throw new IllegalArgumentException(type.getName() + " names no version: annotate it with @Version "
                    + "(and @Group)");
        }
        if (!groupOf(type).equals(group) || !HasMetadata.getKind(type).equals(kind)) {
            throw new IllegalArgumentException("one conversion endpoint converts one kind: " + type.getName() + " is "
                    + HasMetadata.getKind(type) + " of '" + groupOf(type) + "', the others " + kind + " of '" + group
                    + "'");
        }
        String apiVersion = HasMetadata.getApiVersion(type);
        Class<? extends HasMetadata> known = classes.putIfAbsent(apiVersion, type);
        if (known != null && known != type) {
            throw new IllegalArgumentException("two classes for " + apiVersion + ": " + known.getName() + " and "
                    + type.getName());
        }
        return apiVersion;
    }

    private static String groupOf(Class<?> type) {
        String group = HasMetadata.getGroup(type);
        return group == null ? "" : group;
    }

    static String describe(JsonNode object) {
        JsonNode metadata = object.path("metadata");
        String namespace = metadata.path("namespace").asString("");
        return object.path("kind").asString("object") + " " + (namespace.isEmpty() ? "" : namespace + "/")
                + metadata.path("name").asString("(unnamed)");
    }
}
