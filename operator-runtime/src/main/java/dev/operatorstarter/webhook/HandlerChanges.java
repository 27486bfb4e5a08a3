package dev.operatorstarter.webhook;

import java.util.LinkedHashSet;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * The object a mutating handler meant: its changes laid over the object as the API server sent
 * it. Decoding into a Java class and writing it back is not always the identity: a field the class
 * does not declare is dropped, and a field the class initialises (an empty map, a default) appears.
 * A patch between the sent object and the handler's result would remove or add those although the
 * handler never touched them, so the patch is computed against this result instead.
 *
 * <p>Three trees take part: {@code sent} (as the API server sent it), {@code decoded} (the object
 * decoded and written back, before the handler ran) and {@code changed} (written back after the
 * handler ran). Where {@code changed} equals {@code decoded}, the handler did not touch it and
 * {@code sent} is kept. Members of objects are merged one by one: a member only {@code sent} has
 * stays, a member only {@code decoded} and {@code changed} have (equal) is left out, and the rest
 * come from {@code changed}. Arrays are lined up as the patch lines them up: the elements the
 * handler left equal at both ends are the sent ones, the elements between are merged in place one
 * by one, and those the handler added or removed beyond that are added (as it wrote them) or
 * removed. So appending a container keeps the fields the class does not declare on the others.
 */
final class HandlerChanges {

    private HandlerChanges() {
    }

    static JsonNode over(JsonNode sent, JsonNode decoded, JsonNode changed) {
        if (JsonPatch.same(decoded, changed)) {
            return sent;
        }
        if (sent.isObject() && decoded.isObject() && changed.isObject()) {
            return objects(sent, decoded, changed);
        }
        if (sent.isArray() && decoded.isArray() && changed.isArray() && sent.size() == decoded.size()) {
            return arrays(sent, decoded, changed);
        }
        return changed;
    }

    /** {@code sent} and {@code decoded} have the same length: their elements correspond one to one. */
    private static JsonNode arrays(JsonNode sent, JsonNode decoded, JsonNode changed) {
        int decodedSize = decoded.size();
        int changedSize = changed.size();
        int start = 0;
        while (start < decodedSize && start < changedSize && JsonPatch.same(decoded.get(start), changed.get(start))) {
            start++;
        }
        int end = 0;
        while (end < decodedSize - start && end < changedSize - start
                && JsonPatch.same(decoded.get(decodedSize - 1 - end), changed.get(changedSize - 1 - end))) {
            end++;
        }
        int inPlace = Math.min(decodedSize - start - end, changedSize - start - end);
        ArrayNode merged = JsonNodeFactory.instance.arrayNode(changedSize);
        for (int i = 0; i < start; i++) {
            merged.add(sent.get(i));
        }
        for (int i = start; i < start + inPlace; i++) {
            merged.add(over(sent.get(i), decoded.get(i), changed.get(i)));
        }
        for (int i = start + inPlace; i < changedSize - end; i++) {
            merged.add(changed.get(i)); // added by the handler
        }
        for (int i = decodedSize - end; i < decodedSize; i++) {
            merged.add(sent.get(i));
        }
        return merged;
    }

    private static JsonNode objects(JsonNode sent, JsonNode decoded, JsonNode changed) {
        ObjectNode merged = JsonNodeFactory.instance.objectNode();
        Set<String> names = new LinkedHashSet<>(sent.propertyNames());
        names.addAll(changed.propertyNames());
        for (String name : names) {
            JsonNode value = member(sent.get(name), decoded.get(name), changed.get(name));
            if (value != null) {
                merged.set(name, value);
            }
        }
        return merged;
    }

    private static @Nullable JsonNode member(@Nullable JsonNode sent, @Nullable JsonNode decoded,
            @Nullable JsonNode changed) {
        if (decoded == null) {
            // the class did not read it: kept unless the handler set it
            return changed != null ? changed : sent;
        }
        if (changed == null) {
            // decoded, then removed by the handler
            return null;
        }
        if (sent == null) {
            // the class filled it in: left out unless the handler changed it
            return JsonPatch.same(decoded, changed) ? null : changed;
        }
        return over(sent, decoded, changed);
    }
}
