package dev.operatorstarter.webhook;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * An RFC 6902 JSON Patch of {@code add}, {@code remove} and {@code replace} operations: what a
 * mutating webhook answers, computed by {@link #diff} from the object as it came and the object
 * as the handler left it.
 *
 * <p>{@link #diff} guarantees that {@code diff(a, b).applyTo(a)} equals {@code b}. Numbers are
 * compared by value ({@code 1}, {@code 1.0} and a long {@code 1} are equal), so a field whose Java
 * type writes a number differently is not reported as changed. Object members are compared by
 * name; arrays keep their common start and end, change the elements between them in place, and
 * remove or add only the difference in length, so inserting or removing one element gives one
 * operation. Paths are JSON Pointers (RFC 6901), with {@code ~} written as {@code ~0} and
 * {@code /} as {@code ~1}.
 *
 * @param operations the operations in the order they apply
 */
public record JsonPatch(List<Operation> operations) {

    public JsonPatch {
        operations = List.copyOf(operations);
    }

    /** One operation: {@code value} is null for {@code remove}. */
    public record Operation(Op op, String path, @Nullable JsonNode value) {

        public Operation {
            Objects.requireNonNull(op, "op");
            Objects.requireNonNull(path, "path");
            if ((op == Op.REMOVE) != (value == null)) {
                throw new IllegalArgumentException(op.jsonName() + " at '" + path + "' "
                        + (value == null ? "needs a value" : "takes no value"));
            }
        }
    }

    /** The operations a diff produces. */
    public enum Op {
        ADD,
        REMOVE,
        REPLACE;

        /** The name in a patch document: {@code add}, {@code remove}, {@code replace}. */
        public String jsonName() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /** The operations that turn {@code source} into {@code target}; none when they are equal. */
    public static JsonPatch diff(JsonNode source, JsonNode target) {
        List<Operation> operations = new ArrayList<>();
        diff("", source, target, operations);
        return new JsonPatch(operations);
    }

    public boolean isEmpty() {
        return operations.isEmpty();
    }

    /**
     * {@code document} with every operation applied, as a new tree ({@code document} is left as it is).
     *
     * @throws IllegalArgumentException naming the operation when a path does not exist
     */
    public JsonNode applyTo(JsonNode document) {
        JsonNode result = document.deepCopy();
        for (Operation operation : operations) {
            result = apply(result, operation);
        }
        return result;
    }

    /** The patch document: a JSON array of {@code {"op", "path"[, "value"]}} objects. */
    public ArrayNode toJson() {
        ArrayNode array = JsonNodeFactory.instance.arrayNode();
        for (Operation operation : operations) {
            ObjectNode node = array.addObject();
            node.put("op", operation.op().jsonName());
            node.put("path", operation.path());
            if (operation.value() != null) {
                node.set("value", operation.value());
            }
        }
        return array;
    }

    @Override
    public String toString() {
        return toJson().toString();
    }

    /** {@code token} escaped for a JSON Pointer: {@code ~} as {@code ~0}, then {@code /} as {@code ~1}. */
    public static String escape(String token) {
        return token.replace("~", "~0").replace("/", "~1");
    }

    private static String unescape(String token) {
        return token.replace("~1", "/").replace("~0", "~");
    }

    /**
     * Whether {@code a} and {@code b} are the same JSON: numbers by value, objects regardless of
     * member order, arrays element by element.
     */
    static boolean same(@Nullable JsonNode a, @Nullable JsonNode b) {
        if (a == null || b == null) {
            return a == b;
        }
        if (a.isNumber() && b.isNumber()) {
            return a.decimalValue().compareTo(b.decimalValue()) == 0;
        }
        if (a.isObject() && b.isObject()) {
            if (a.size() != b.size()) {
                return false;
            }
            for (var member : a.properties()) {
                if (!same(member.getValue(), b.get(member.getKey()))) {
                    return false;
                }
            }
            return true;
        }
        if (a.isArray() && b.isArray()) {
            if (a.size() != b.size()) {
                return false;
            }
            for (int i = 0; i < a.size(); i++) {
                if (!same(a.get(i), b.get(i))) {
                    return false;
                }
            }
            return true;
        }
        return a.equals(b);
    }

    private static void diff(String path, JsonNode source, JsonNode target, List<Operation> out) {
        if (same(source, target)) {
            return;
        }
        if (source.isObject() && target.isObject()) {
            for (var member : source.properties()) {
                if (!target.has(member.getKey())) {
                    out.add(new Operation(Op.REMOVE, path + "/" + escape(member.getKey()), null));
                }
            }
            for (var member : target.properties()) {
                String memberPath = path + "/" + escape(member.getKey());
                JsonNode before = source.get(member.getKey());
                if (before == null) {
                    out.add(new Operation(Op.ADD, memberPath, member.getValue().deepCopy()));
                } else {
                    diff(memberPath, before, member.getValue(), out);
                }
            }
        } else if (source.isArray() && target.isArray()) {
            diffArrays(path, source, target, out);
        } else {
            out.add(new Operation(Op.REPLACE, path, target.deepCopy()));
        }
    }

    /**
     * Keeps the equal elements at both ends; of the ones between, changes the first
     * {@code min(lengths)} in place, then removes the source's extra ones or adds the target's, at
     * the position after those, so the common end moves as a block.
     */
    private static void diffArrays(String path, JsonNode source, JsonNode target, List<Operation> out) {
        int sourceSize = source.size();
        int targetSize = target.size();
        int start = 0;
        while (start < sourceSize && start < targetSize && same(source.get(start), target.get(start))) {
            start++;
        }
        int end = 0;
        while (end < sourceSize - start && end < targetSize - start
                && same(source.get(sourceSize - 1 - end), target.get(targetSize - 1 - end))) {
            end++;
        }
        int sourceMiddle = sourceSize - start - end;
        int targetMiddle = targetSize - start - end;
        int inPlace = Math.min(sourceMiddle, targetMiddle);
        for (int i = 0; i < inPlace; i++) {
            diff(path + "/" + (start + i), source.get(start + i), target.get(start + i), out);
        }
        int next = start + inPlace;
        for (int i = inPlace; i < sourceMiddle; i++) {
            out.add(new Operation(Op.REMOVE, path + "/" + next, null));
        }
        for (int i = inPlace; i < targetMiddle; i++) {
            out.add(new Operation(Op.ADD, path + "/" + (start + i), target.get(start + i).deepCopy()));
        }
    }

    private static JsonNode apply(JsonNode document, Operation operation) {
        String path = operation.path();
        if (path.isEmpty()) {
            if (operation.op() == Op.REMOVE) {
                throw failure(operation, "the whole document cannot be removed");
            }
            return operation.value().deepCopy();
        }
        if (!path.startsWith("/")) {
            throw failure(operation, "a path starts with '/'");
        }
        int last = path.lastIndexOf('/');
        JsonNode parent = resolve(document, path.substring(0, last), operation);
        String token = unescape(path.substring(last + 1));
        if (parent instanceof ObjectNode object) {
            boolean exists = object.has(token);
            switch (operation.op()) {
                case ADD -> object.set(token, operation.value().deepCopy());
                case REPLACE -> {
                    if (!exists) {
                        throw failure(operation, "there is no member '" + token + "' to replace");
                    }
                    object.set(token, operation.value().deepCopy());
                }
                case REMOVE -> {
                    if (!exists) {
                        throw failure(operation, "there is no member '" + token + "' to remove");
                    }
                    object.remove(token);
                }
            }
        } else if (parent instanceof ArrayNode array) {
            int index = operation.op() == Op.ADD && token.equals("-") ? array.size() : index(token, operation);
            int limit = operation.op() == Op.ADD ? array.size() : array.size() - 1;
            if (index > limit) {
                throw failure(operation, "index " + index + " is beyond the array's " + array.size() + " elements");
            }
            switch (operation.op()) {
                case ADD -> array.insert(index, operation.value().deepCopy());
                case REPLACE -> array.set(index, operation.value().deepCopy());
                case REMOVE -> array.remove(index);
            }
        } else {
            throw failure(operation, "its parent is neither an object nor an array");
        }
        return document;
    }

    private static JsonNode resolve(JsonNode document, String pointer, Operation operation) {
        JsonNode node = document;
        if (pointer.isEmpty()) {
            return node;
        }
        for (String raw : pointer.substring(1).split("/", -1)) {
            String token = unescape(raw);
            JsonNode child = node.isArray() ? node.get(index(token, operation)) : node.isObject() ? node.get(token) : null;
            if (child == null) {
                throw failure(operation, "'" + pointer + "' does not exist");
            }
            node = child;
        }
        return node;
    }

    private static int index(String token, Operation operation) {
        if (!token.matches("0|[1-9][0-9]{0,8}")) {
            throw failure(operation, "'" + token + "' is not an array index");
        }
        return Integer.parseInt(token);
    }

    private static IllegalArgumentException failure(Operation operation, String why) {
        return new IllegalArgumentException("cannot apply " + operation.op().jsonName() + " at '" + operation.path()
                + "': " + why);
    }
}
