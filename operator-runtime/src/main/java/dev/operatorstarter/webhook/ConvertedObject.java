package dev.operatorstarter.webhook;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * A converter's result made acceptable to the API server: the desired {@code apiVersion}, the
 * kind, and the original {@code metadata}, of which only {@code labels} and {@code annotations}
 * are taken from the result (the API server rejects a conversion that changes any other metadata).
 * A result whose metadata does not carry the object's name, generateName or uid was built with fresh metadata rather
 * than the source's: it keeps the original labels and annotations too, so a converter that builds
 * a new object without copying the metadata loses nothing.
 */
final class ConvertedObject {

    private ConvertedObject() {
    }

    static JsonNode of(JsonNode original, JsonNode converted, String apiVersion, String kind) {
        ObjectNode result = converted.isObject() ? (ObjectNode) converted.deepCopy()
                : tools.jackson.databind.node.JsonNodeFactory.instance.objectNode();
        result.put("apiVersion", apiVersion);
        result.put("kind", kind);
        JsonNode originalMetadata = original.get("metadata");
        if (originalMetadata == null || !originalMetadata.isObject()) {
            result.remove("metadata");
            return result;
        }
        ObjectNode metadata = (ObjectNode) originalMetadata.deepCopy();
        JsonNode convertedMetadata = converted.path("metadata");
        if (!carried(originalMetadata, convertedMetadata)) {
            result.set("metadata", metadata);
            return result;
        }
        for (String field : new String[] {"labels", "annotations"}) {
            JsonNode value = convertedMetadata.get(field);
            if (value != null && value.isObject() && !value.isEmpty()) {
                metadata.set(field, value.deepCopy());
            } else {
                metadata.remove(field);
            }
        }
        result.set("metadata", metadata);
        return result;
    }

    /** Whether {@code converted} is the source's metadata (same name, generateName or uid), not a fresh one. */
    private static boolean carried(JsonNode original, JsonNode converted) {
        for (String field : new String[] {"name", "generateName", "uid"}) {
            String value = original.path(field).asString("");
            if (!value.isEmpty() && value.equals(converted.path(field).asString(""))) {
                return true;
            }
        }
        return false;
    }
}
