package dev.operatorstarter.sharding;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * A JSON merge patch of an object's labels and annotations that carries the object's
 * {@code metadata.resourceVersion}, which the API server then treats as a precondition: the write
 * fails with 409 when the object changed since the version the writer decided on (as
 * controller-runtime's {@code MergeFromWithOptimisticLock}). A null value removes the key.
 *
 * <p>{@link #toString()} is the body, as text: the client's JSON mapper leaves out null values,
 * which here are the removals. Immutable.
 */
final class LabelPatch {

    private final String resourceVersion;
    private final Map<String, @Nullable String> labels;
    private final Map<String, @Nullable String> annotations;

    private LabelPatch(String resourceVersion, Map<String, @Nullable String> labels,
            Map<String, @Nullable String> annotations) {
        this.resourceVersion = resourceVersion;
        this.labels = labels;
        this.annotations = annotations;
    }

    /**
     * A patch of the object at {@code resourceVersion} that changes nothing yet.
     *
     * @throws IllegalArgumentException when {@code resourceVersion} is null or empty: the server
     *     would take the patch as unconditional, and every label write here must be conditional
     */
    static LabelPatch at(@Nullable String resourceVersion) {
        if (resourceVersion == null || resourceVersion.isEmpty()) {
            throw new IllegalArgumentException("a label patch needs the resourceVersion it was decided on, was '"
                    + resourceVersion + "': without it the write would not be conditional");
        }
        return new LabelPatch(resourceVersion, Map.of(), Map.of());
    }

    /** This patch, also setting label {@code key} to {@code value} (null: removing it). */
    LabelPatch label(String key, @Nullable String value) {
        return new LabelPatch(resourceVersion, with(labels, key, value), annotations);
    }

    /** This patch, also setting annotation {@code key} to {@code value} (null: removing it). */
    LabelPatch annotation(String key, @Nullable String value) {
        return new LabelPatch(resourceVersion, labels, with(annotations, key, value));
    }

    private static Map<String, @Nullable String> with(Map<String, @Nullable String> map, String key,
            @Nullable String value) {
        Map<String, @Nullable String> copy = new LinkedHashMap<>(map);
        copy.put(Objects.requireNonNull(key, "key"), value);
        return copy;
    }

    /** The body: {@code {"metadata":{"resourceVersion":..,"labels":{..},"annotations":{..}}}}. */
    @Override
    public String toString() {
        ObjectNode patch = JsonNodeFactory.instance.objectNode();
        ObjectNode metadata = patch.putObject("metadata");
        metadata.put("resourceVersion", resourceVersion);
        put(metadata, "labels", labels);
        put(metadata, "annotations", annotations);
        return patch.toString();
    }

    private static void put(ObjectNode metadata, String field, Map<String, @Nullable String> values) {
        if (values.isEmpty()) {
            return;
        }
        ObjectNode node = metadata.putObject(field);
        values.forEach((key, value) -> {
            if (value == null) {
                node.putNull(key); // a JSON merge patch removes a key whose value is null
            } else {
                node.put(key, value);
            }
        });
    }
}
