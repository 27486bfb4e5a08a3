package dev.operatorstarter.client.config;

import java.nio.file.Path;
import java.util.Collection;
import java.util.List;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.core.exc.StreamConstraintsException;
import tools.jackson.databind.JsonNode;
import tools.jackson.dataformat.yaml.YAMLMapper;

/**
 * Reads one kubeconfig file's YAML into a tree, and scalar fields out of it. Errors name the file
 * and where the parser stopped, never the text around it (a token may be there); a list or mapping
 * where a scalar belongs is a {@link WrongType}, which the caller that knows the file and context
 * turns into a {@link ConfigException}; names from the file are {@linkplain #shown shown} only when
 * they look like names.
 */
final class KubeconfigParser {

    private static final YAMLMapper YAML = YAMLMapper.builder().build();

    private KubeconfigParser() {
    }

    /** The file's root mapping; an empty file is an empty mapping, as for kubectl. */
    static JsonNode parse(byte[] yaml, Path file) {
        JsonNode root;
        try {
            root = YAML.readTree(yaml);
        } catch (JacksonException e) {
            // Jackson's and SnakeYAML's messages quote the text around the error, which may be a
            // token or a key: the message is built from the location alone, and the parser's
            // exception is not kept as the cause, since its message would quote the text all the same.
            throw new ConfigException("kubeconfig " + file + " is not valid YAML" + location(e) + problem(e));
        }
        if (root == null || root.isMissingNode() || root.isNull()) {
            return YAML.createObjectNode(); // an empty file is an empty configuration, as for kubectl
        }
        if (!root.isObject()) {
            throw new ConfigException("kubeconfig " + file + " is not a YAML mapping");
        }
        return root;
    }

    /** " at line L, column C" where the parser stopped, or nothing when it does not say. */
    private static String location(JacksonException e) {
        var where = e.getLocation();
        if (where == null || where.getLineNr() < 1) {
            return "";
        }
        return " at line " + where.getLineNr() + (where.getColumnNr() < 1 ? "" : ", column " + where.getColumnNr());
    }

    /** The one kind of parser problem whose message is ours to show: a limit (nesting, length) was passed. */
    private static String problem(JacksonException e) {
        return e instanceof StreamConstraintsException ? " (" + e.getOriginalMessage() + ")" : "";
    }

    /** True for null and "". */
    static boolean isEmpty(@Nullable String value) {
        return value == null || value.isEmpty();
    }

    /**
     * A name or value from the file as a message shows it: as it is when it looks like a name (no
     * white space or control characters, at most 253 characters), else only its length. A mangled
     * file (a stray quote) can turn half of itself, tokens included, into one "name".
     */
    static String shown(String value) {
        boolean nameLike = value.length() <= 253
                && value.chars().noneMatch(c -> Character.isWhitespace(c) || Character.isISOControl(c));
        return nameLike ? value : "<" + value.length() + " characters, not shown>";
    }

    static List<String> shown(Collection<String> values) {
        return values.stream().map(KubeconfigParser::shown).toList();
    }

    /** A scalar field as text; null when absent or null. */
    static @Nullable String text(JsonNode node, String field) {
        JsonNode value = node.get(field);
        if (value == null || value.isNull()) {
            return null;
        }
        if (value.isContainer()) {
            throw new WrongType(field, value);
        }
        return value.asString();
    }

    /** A boolean field; false when absent. */
    static boolean flag(JsonNode node, String field) {
        JsonNode value = node.get(field);
        if (value != null && value.isContainer()) {
            throw new WrongType(field, value);
        }
        return value != null && value.asBoolean(false);
    }

    /**
     * A list or mapping where a scalar belongs. Thrown where the field is read and turned into a
     * {@link ConfigException} by the caller that knows the file and context; the value itself is
     * never printed (it may be a secret).
     */
    static final class WrongType extends RuntimeException {

        private static final long serialVersionUID = 1L;

        private final String field;
        private final String found;

        WrongType(String field, JsonNode value) {
            super(null, null, false, false);
            this.field = field;
            this.found = value.isArray() ? "a list" : "a mapping";
        }

        ConfigException at(String where) {
            return new ConfigException(where + ": field " + field + " must be a single value, not " + found);
        }
    }
}
