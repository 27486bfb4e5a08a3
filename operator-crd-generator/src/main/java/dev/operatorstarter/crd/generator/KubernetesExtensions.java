package dev.operatorstarter.crd.generator;

import static dev.operatorstarter.crd.generator.Schemas.ARRAY;
import static dev.operatorstarter.crd.generator.Schemas.OBJECT;
import static dev.operatorstarter.crd.generator.Schemas.STRING;

import dev.operatorstarter.client.KubernetesJson;
import dev.operatorstarter.crd.Default;
import dev.operatorstarter.crd.ListMapKeys;
import dev.operatorstarter.crd.ListType;
import dev.operatorstarter.crd.MapType;
import dev.operatorstarter.crd.NullAllowed;
import dev.operatorstarter.crd.PreserveUnknownFields;
import dev.operatorstarter.crd.ValidationRule;
import io.fabric8.kubernetes.api.model.apiextensions.v1.JSONSchemaProps;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.StringNode;

/**
 * The {@code dev.operatorstarter.crd} annotations of a property or class, turned into the schema
 * keywords and {@code x-kubernetes-*} extensions they document, with the checks the API server
 * would otherwise make later and less clearly (a default of the wrong type, list-map keys that
 * the items lack).
 */
final class KubernetesExtensions {

    private static final Set<String> RULE_REASONS = Set.of("FieldValueInvalid", "FieldValueForbidden",
            "FieldValueRequired", "FieldValueDuplicate");

    private KubernetesExtensions() {
    }

    /** The annotations that belong on a property: default, nullable, list and map types. */
    static void applyPropertyAnnotations(Annotations annotations, JSONSchemaProps schema, SchemaPath path) {
        Default value = annotations.find(Default.class);
        if (value != null) {
            schema.setDefault(defaultValue(value.value(), schema, path));
        }
        if (annotations.has(NullAllowed.class)) {
            schema.setNullable(true);
        }
        listType(annotations.find(ListType.class), annotations.find(ListMapKeys.class), schema, path);
        MapType mapType = annotations.find(MapType.class);
        if (mapType != null) {
            if (!OBJECT.equals(schema.getType())) {
                throw path.error("@MapType applies to maps and objects, not to " + Schemas.describe(schema));
            }
            schema.setXKubernetesMapType(mapType.value().name().toLowerCase(Locale.ROOT));
        }
    }

    /** The annotations that belong on a property or a class: CEL rules and preserve-unknown-fields. */
    static void applyValueAnnotations(Annotations annotations, JSONSchemaProps schema, SchemaPath path) {
        List<ValidationRule> rules = annotations.validationRules();
        if (!rules.isEmpty()) {
            List<io.fabric8.kubernetes.api.model.apiextensions.v1.ValidationRule> all = new ArrayList<>(
                    schema.getXKubernetesValidations() == null ? List.of() : schema.getXKubernetesValidations());
            for (ValidationRule rule : rules) {
                all.add(validation(rule, path));
            }
            schema.setXKubernetesValidations(all);
        }
        if (annotations.has(PreserveUnknownFields.class)) {
            schema.setXKubernetesPreserveUnknownFields(true);
        }
    }

    private static io.fabric8.kubernetes.api.model.apiextensions.v1.ValidationRule validation(ValidationRule rule,
            SchemaPath path) {
        if (rule.rule().isBlank()) {
            throw path.error("@ValidationRule has an empty rule");
        }
        if (!rule.reason().isEmpty() && !RULE_REASONS.contains(rule.reason())) {
            throw path.error("@ValidationRule reason \"" + rule.reason() + "\" is not one of "
                    + RULE_REASONS.stream().sorted().toList());
        }
        var validation = new io.fabric8.kubernetes.api.model.apiextensions.v1.ValidationRule();
        validation.setRule(rule.rule());
        validation.setMessage(emptyToNull(rule.message()));
        validation.setMessageExpression(emptyToNull(rule.messageExpression()));
        validation.setReason(emptyToNull(rule.reason()));
        validation.setFieldPath(emptyToNull(rule.fieldPath()));
        validation.setOptionalOldSelf(rule.optionalOldSelf() ? Boolean.TRUE : null);
        return validation;
    }

    private static void listType(@Nullable ListType listType, @Nullable ListMapKeys keys, JSONSchemaProps schema, SchemaPath path) {
        if (listType == null && keys == null) {
            return;
        }
        if (!ARRAY.equals(schema.getType())) {
            throw path.error((keys != null ? "@ListMapKeys" : "@ListType") + " applies to lists, sets and arrays, "
                    + "not to " + Schemas.describe(schema));
        }
        ListType.Kind kind = listType == null ? ListType.Kind.MAP : listType.value();
        if (keys != null && kind != ListType.Kind.MAP) {
            throw path.error("@ListMapKeys goes with @ListType(MAP), not " + kind);
        }
        JSONSchemaProps items = schema.getItems().getSchema();
        switch (kind) {
            case SET -> {
                if (!Schemas.isScalar(items)) {
                    throw path.error("@ListType(SET) needs items that are strings, numbers or booleans, not "
                            + Schemas.describe(items) + "; use MAP with @ListMapKeys for objects");
                }
            }
            case MAP -> {
                if (keys == null || keys.value().length == 0) {
                    throw path.error("@ListType(MAP) needs @ListMapKeys naming the properties that identify an item");
                }
                mapKeys(keys.value(), items, path);
                schema.setXKubernetesListMapKeys(List.of(keys.value()));
            }
            case ATOMIC -> {
            }
        }
        schema.setXKubernetesListType(kind.name().toLowerCase(Locale.ROOT));
    }

    private static void mapKeys(String[] keys, JSONSchemaProps items, SchemaPath path) {
        if (!OBJECT.equals(items.getType()) || items.getProperties() == null) {
            throw path.error("@ListMapKeys needs items that are objects with properties, not "
                    + Schemas.describe(items));
        }
        List<String> required = items.getRequired() == null ? List.of() : items.getRequired();
        for (String key : keys) {
            JSONSchemaProps property = items.getProperties().get(key);
            if (property == null) {
                throw path.error("@ListMapKeys names \"" + key + "\", which the items do not have; they have "
                        + items.getProperties().keySet());
            }
            if (!required.contains(key) && property.getDefault() == null) {
                throw path.error("list-map key \"" + key + "\" must be required or have a @Default: the API server "
                        + "refuses a key that an item may lack");
            }
        }
    }

    /**
     * The default as JSON: for a {@code string} schema the text itself; for an int-or-string an
     * integer when the text is one, else the text; for anything else the text parsed as JSON, of
     * the schema's type.
     */
    private static JsonNode defaultValue(String text, JSONSchemaProps schema, SchemaPath path) {
        JsonNode value;
        if (STRING.equals(schema.getType())) {
            value = StringNode.valueOf(text);
        } else if (Boolean.TRUE.equals(schema.getXKubernetesIntOrString())) {
            JsonNode parsed = parseOrNull(text);
            value = parsed != null && parsed.isIntegralNumber() ? parsed : StringNode.valueOf(text);
        } else {
            value = parseOrNull(text);
            if (value == null) {
                throw path.error(annotation(text) + " is not JSON; a default of a property that is not a "
                        + "string is written as JSON, for example 1, true, [\"a\"] or {}");
            }
            if (!fits(value, schema)) {
                throw path.error(annotation(text) + " is not " + Schemas.describe(schema));
            }
        }
        if (schema.getEnum() != null && !schema.getEnum().isEmpty() && !schema.getEnum().contains(value)) {
            throw path.error(annotation(text) + " is not one of " + schema.getEnum());
        }
        return value;
    }

    /** The annotation as it is written in Java source, for messages: {@code @Default("\"three\"")}. */
    private static String annotation(String text) {
        return "@Default(\"" + text.replace("\\", "\\\\").replace("\"", "\\\"") + "\")";
    }

    private static boolean fits(JsonNode value, JSONSchemaProps schema) {
        String type = schema.getType();
        if (type == null) {
            return true;
        }
        return switch (type) {
            case Schemas.INTEGER -> value.isIntegralNumber();
            case Schemas.NUMBER -> value.isNumber();
            case Schemas.BOOLEAN -> value.isBoolean();
            case ARRAY -> value.isArray();
            case OBJECT -> value.isObject();
            default -> false;
        };
    }

    private static @Nullable JsonNode parseOrNull(String text) {
        try {
            return KubernetesJson.mapper().readTree(text);
        } catch (JacksonException e) {
            return null;
        }
    }

    private static @Nullable String emptyToNull(String text) {
        return text.isEmpty() ? null : text;
    }
}
