package dev.operatorstarter.sample;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.fabric8.kubernetes.api.model.HasMetadata;
import java.lang.reflect.Field;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * The CRD YAML (the chart's copy, the only one) and the Java model describe the same resource:
 * names, scope and subresources match the class's annotations, and the OpenAPI schema of spec and
 * status has exactly the Java properties, with matching types, all the way down. A field added on
 * one side only fails here, naming its path.
 */
class CrdSchemaTest {

    private final JsonNode crd = Examples.read(Examples.CRD, JsonNode.class);
    private final JsonNode version = crd.at("/spec/versions/0");
    private final JsonNode schema = version.at("/schema/openAPIV3Schema");

    @Test
    void theCrdNamesTheResourceAsTheJavaClassDoes() {
        assertThat(crd.at("/spec/group").asString()).isEqualTo(HasMetadata.getGroup(StaticSite.class));
        assertThat(crd.at("/spec/versions").size()).isOne();
        assertThat(version.at("/name").asString()).isEqualTo(HasMetadata.getVersion(StaticSite.class));
        assertThat(version.at("/storage").asBoolean()).isTrue();
        assertThat(crd.at("/spec/names/kind").asString()).isEqualTo(HasMetadata.getKind(StaticSite.class));
        assertThat(crd.at("/spec/names/plural").asString()).isEqualTo(HasMetadata.getPlural(StaticSite.class));
        assertThat(crd.at("/metadata/name").asString()).isEqualTo(HasMetadata.getFullResourceName(StaticSite.class));
        assertThat(crd.at("/spec/scope").asString()).isEqualTo("Namespaced"); // StaticSite implements Namespaced
        assertThat(version.at("/subresources/status").isObject()).as("the reconciler patches the status subresource").isTrue();
    }

    @Test
    void theSpecSchemaHasExactlyTheJavaSpecsProperties() {
        List<String> problems = new ArrayList<>();
        compare("spec", StaticSiteSpec.class, schema.at("/properties/spec"), problems);
        assertThat(problems).isEmpty();
        assertThat(schema.at("/properties/spec/required").valueStream().map(JsonNode::asString)).containsExactly("content");
    }

    @Test
    void theStatusSchemaHasExactlyTheJavaStatusProperties() {
        List<String> problems = new ArrayList<>();
        compare("status", StaticSiteStatus.class, schema.at("/properties/status"), problems);
        assertThat(problems).isEmpty();
    }

    @Test
    void everyPrinterColumnReadsAFieldTheSchemaHas() {
        for (JsonNode column : version.at("/additionalPrinterColumns")) {
            String path = column.at("/jsonPath").asString();
            if (path.startsWith(".metadata.")) {
                continue;
            }
            String field = path.replaceAll("\\[.*\\]", "").substring(1); // .status.conditions[?(...)].status
            JsonNode node = schema;
            for (String part : field.split("\\.")) {
                node = node.has("items") ? node.at("/items") : node;
                node = node.at("/properties/" + part);
                assertThat(node.isMissingNode()).as("printer column %s reads %s", column.at("/name").asString(), path)
                        .isFalse();
            }
        }
    }

    /** Adds to {@code problems} every difference between {@code type}'s JSON shape and {@code node}. */
    private static void compare(String path, Type type, JsonNode node, List<String> problems) {
        Class<?> raw = raw(type);
        String expected = jsonType(raw);
        if (!expected.equals(node.at("/type").asString())) {
            problems.add(path + ": the schema says " + node.at("/type") + ", Java " + type.getTypeName() + " is " + expected);
            return;
        }
        String format = raw == int.class || raw == Integer.class ? "int32" : raw == long.class || raw == Long.class ? "int64" : null;
        if (format != null && !format.equals(node.at("/format").asString())) {
            problems.add(path + ": format should be " + format + " for Java " + type.getTypeName());
        }
        if (List.class.isAssignableFrom(raw)) {
            compare(path + "[]", ((ParameterizedType) type).getActualTypeArguments()[0], node.at("/items"), problems);
        } else if (Map.class.isAssignableFrom(raw)) {
            compare(path + "{}", ((ParameterizedType) type).getActualTypeArguments()[1],
                    node.at("/additionalProperties"), problems);
        } else if (expected.equals("object")) {
            Map<String, Type> javaProperties = properties(raw);
            TreeSet<String> schemaProperties = new TreeSet<>();
            node.at("/properties").propertyNames().forEach(schemaProperties::add);
            if (!schemaProperties.equals(new TreeSet<>(javaProperties.keySet()))) {
                problems.add(path + ": the schema has " + schemaProperties + ", Java " + raw.getSimpleName() + " has "
                        + new TreeSet<>(javaProperties.keySet()));
            }
            javaProperties.forEach((name, propertyType) -> {
                if (schemaProperties.contains(name)) {
                    compare(path + "." + name, propertyType, node.at("/properties/" + name), problems);
                }
            });
        }
    }

    /** A record's components, or the {@code @JsonProperty} fields of a fabric8 model class. */
    private static Map<String, Type> properties(Class<?> type) {
        Map<String, Type> properties = new LinkedHashMap<>();
        if (type.isRecord()) {
            for (RecordComponent component : type.getRecordComponents()) {
                properties.put(component.getName(), component.getGenericType());
            }
        } else {
            for (Field field : type.getDeclaredFields()) {
                JsonProperty property = field.getAnnotation(JsonProperty.class);
                if (property != null) {
                    properties.put(property.value().isEmpty() ? field.getName() : property.value(), field.getGenericType());
                }
            }
        }
        return properties;
    }

    private static String jsonType(Class<?> raw) {
        if (raw == String.class) {
            return "string";
        }
        if (raw == int.class || raw == Integer.class || raw == long.class || raw == Long.class) {
            return "integer";
        }
        if (raw == boolean.class || raw == Boolean.class) {
            return "boolean";
        }
        return List.class.isAssignableFrom(raw) ? "array" : "object";
    }

    private static Class<?> raw(Type type) {
        return type instanceof ParameterizedType parameterized ? (Class<?>) parameterized.getRawType() : (Class<?>) type;
    }
}
