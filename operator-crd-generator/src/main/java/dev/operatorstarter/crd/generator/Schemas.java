package dev.operatorstarter.crd.generator;

import io.fabric8.kubernetes.api.model.apiextensions.v1.JSONSchemaProps;
import io.fabric8.kubernetes.api.model.apiextensions.v1.JSONSchemaPropsOrArray;
import io.fabric8.kubernetes.api.model.apiextensions.v1.JSONSchemaPropsOrBool;
import java.util.List;
import java.util.Set;

/** Builders of the schema nodes the generator writes; each call returns a new node. */
final class Schemas {

    static final String OBJECT = "object";
    static final String ARRAY = "array";
    static final String STRING = "string";
    static final String INTEGER = "integer";
    static final String NUMBER = "number";
    static final String BOOLEAN = "boolean";

    private static final Set<String> SCALARS = Set.of(STRING, INTEGER, NUMBER, BOOLEAN);

    private Schemas() {
    }

    static JSONSchemaProps typed(String type) {
        JSONSchemaProps schema = new JSONSchemaProps();
        schema.setType(type);
        return schema;
    }

    static JSONSchemaProps typed(String type, String format) {
        JSONSchemaProps schema = typed(type);
        schema.setFormat(format);
        return schema;
    }

    static JSONSchemaProps arrayOf(JSONSchemaProps items) {
        JSONSchemaProps schema = typed(ARRAY);
        schema.setItems(new JSONSchemaPropsOrArray(List.of(), items));
        return schema;
    }

    static JSONSchemaProps mapOf(JSONSchemaProps values) {
        JSONSchemaProps schema = typed(OBJECT);
        schema.setAdditionalProperties(new JSONSchemaPropsOrBool(null, values));
        return schema;
    }

    /** Any JSON value, kept as written: no type, {@code x-kubernetes-preserve-unknown-fields}. */
    static JSONSchemaProps anyValue() {
        JSONSchemaProps schema = new JSONSchemaProps();
        schema.setXKubernetesPreserveUnknownFields(true);
        return schema;
    }

    /** Any JSON object, kept as written. */
    static JSONSchemaProps anyObject() {
        JSONSchemaProps schema = typed(OBJECT);
        schema.setXKubernetesPreserveUnknownFields(true);
        return schema;
    }

    /** A whole Kubernetes object: the server checks its apiVersion, kind and metadata only. */
    static JSONSchemaProps embeddedResource() {
        JSONSchemaProps schema = anyObject();
        schema.setXKubernetesEmbeddedResource(true);
        return schema;
    }

    /** An integer or a string ({@code IntOrString}): no type, as Kubernetes' structural rules want. */
    static JSONSchemaProps intOrString() {
        JSONSchemaProps schema = new JSONSchemaProps();
        schema.setXKubernetesIntOrString(true);
        return schema;
    }

    /** A quantity ({@code 1Gi}, {@code 500m}, {@code 2}), written as Kubernetes' own types write it. */
    static JSONSchemaProps quantity() {
        JSONSchemaProps schema = intOrString();
        schema.setAnyOf(List.of(typed(INTEGER), typed(STRING)));
        return schema;
    }

    static boolean isScalar(JSONSchemaProps schema) {
        return schema.getType() != null && SCALARS.contains(schema.getType());
    }

    static boolean hasType(JSONSchemaProps schema, String type) {
        return type.equals(schema.getType());
    }

    /** What a schema holds, for error messages: "a value of type string", "an int-or-string"... */
    static String describe(JSONSchemaProps schema) {
        if (Boolean.TRUE.equals(schema.getXKubernetesIntOrString())) {
            return "an int-or-string";
        }
        return schema.getType() == null ? "a value of any type" : "a value of type " + schema.getType();
    }
}
