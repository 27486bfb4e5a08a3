package dev.operatorstarter.crd.generator;

import static dev.operatorstarter.crd.generator.Schemas.OBJECT;
import static dev.operatorstarter.crd.generator.Schemas.STRING;

import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;
import com.fasterxml.jackson.annotation.JsonUnwrapped;
import dev.operatorstarter.client.CustomResource;
import dev.operatorstarter.client.KubernetesJson;
import dev.operatorstarter.crd.EmbeddedResource;
import dev.operatorstarter.crd.SchemaFrom;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.apiextensions.v1.JSONSchemaProps;
import jakarta.validation.constraints.NotNull;
import java.lang.reflect.AnnotatedParameterizedType;
import java.lang.reflect.AnnotatedType;
import java.lang.reflect.ParameterizedType;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import tools.jackson.databind.BeanDescription;
import tools.jackson.databind.JavaType;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.SerializationContext;
import tools.jackson.databind.ValueSerializer;
import tools.jackson.databind.introspect.AnnotatedClass;
import tools.jackson.databind.introspect.AnnotatedMember;
import tools.jackson.databind.introspect.BeanPropertyDefinition;
import tools.jackson.databind.ser.bean.BeanSerializerBase;

/**
 * The OpenAPI v3 schema of a custom resource class, from the Java types of its properties as the
 * client's Jackson mapper ({@link KubernetesJson#mapper()}) sees them: the same property names,
 * the same ignored properties, records and getters alike. One instance describes one class, once;
 * not thread-safe (it tracks the types it is inside of, to refuse recursion).
 *
 * <p>Mapping, in the order tried: a {@link SchemaFrom} type; a type with a fixed schema
 * ({@link WellKnownTypes}); an enum (its constants as Jackson writes them); a
 * {@link HasMetadata} (an embedded resource); {@code Optional} and other references (their
 * content); arrays and collections ({@code Set}s of scalars are {@code x-kubernetes-list-type:
 * set}); maps with string or enum keys; a type with a {@code @JsonValue} (the value's schema); a
 * type with a serializer of its own (what that serializer says it writes); any other type is an
 * object of its Jackson properties, sorted by name.
 */
final class TypeSchemas {

    private static final Set<String> RESOURCE_HEADER = Set.of("apiVersion", "kind", "metadata");

    private final SerializationContext context = KubernetesJson.mapper()._serializationContext();
    private final Class<?> resource;
    private final Deque<Enclosing> enclosing = new ArrayDeque<>();

    /** A type whose properties are being described, and where: a type met again inside is recursion. */
    private record Enclosing(JavaType type, SchemaPath path) {
    }

    TypeSchemas(Class<?> resource) {
        this.resource = resource;
    }

    /**
     * The {@code openAPIV3Schema} of the resource: {@code apiVersion} and {@code kind} strings, a
     * {@code metadata} object the server describes itself, and the schemas of the other
     * properties ({@code spec}, {@code status}; a {@code Void} one is left out).
     */
    JSONSchemaProps resourceSchema() {
        JavaType type = context.constructType(resource);
        SchemaPath root = SchemaPath.root(resource);
        JSONSchemaProps schema = bean(type, root);
        Set<String> required = new TreeSet<>(schema.getRequired() == null ? List.of() : schema.getRequired());
        required.addAll(requiredByTypeArguments(resource));
        schema.setRequired(required.isEmpty() ? null : new ArrayList<>(required));
        return schema;
    }

    /** The schema of one property: its type's, then its description, constraints and annotations. */
    private JSONSchemaProps property(BeanPropertyDefinition property, SchemaPath path) {
        Annotations annotations = Annotations.of(property);
        JsonUnwrapped unwrapped = annotations.find(JsonUnwrapped.class);
        if (unwrapped != null && unwrapped.enabled()) {
            throw path.error("@JsonUnwrapped is not supported: declare the properties in this class, or describe "
                    + "the property with @SchemaFrom");
        }
        JSONSchemaProps schema;
        if (annotations.has(EmbeddedResource.class)) {
            schema = Schemas.embeddedResource();
        } else {
            SchemaFrom from = annotations.find(SchemaFrom.class);
            schema = of(from == null ? property.getPrimaryType() : context.constructType(from.value()), path);
        }
        String description = property.getMetadata().getDescription();
        if (description != null && !description.isEmpty()) {
            schema.setDescription(description);
        }
        JakartaConstraints.apply(annotations, schema, path);
        KubernetesExtensions.applyPropertyAnnotations(annotations, schema, path);
        KubernetesExtensions.applyValueAnnotations(annotations, schema, path);
        return schema;
    }

    private JSONSchemaProps of(JavaType type, SchemaPath path) {
        Class<?> raw = type.getRawClass();
        Optional<JSONSchemaProps> known = WellKnownTypes.schemaOf(raw);
        if (known.isPresent()) {
            return known.get();
        }
        if (raw == Void.class || raw == void.class) {
            throw path.error("Void has no schema");
        }
        AnnotatedClass classInfo = context.introspectClassAnnotations(type);
        SchemaFrom from = classInfo.getAnnotation(SchemaFrom.class);
        if (from != null && from.value() != raw) {
            return of(context.constructType(from.value()), path);
        }
        if (raw.isEnum()) {
            return withClassAnnotations(enumSchema(raw, path), classInfo, path);
        }
        if (HasMetadata.class.isAssignableFrom(raw)) {
            return Schemas.embeddedResource();
        }
        if (type.isReferenceType()) {
            return of(type.getContentType(), path);
        }
        if (type.isArrayType() || type.isCollectionLikeType()) {
            JSONSchemaProps items = of(type.getContentType(), path.items());
            JSONSchemaProps array = Schemas.arrayOf(items);
            if (Set.class.isAssignableFrom(raw) && Schemas.isScalar(items)) {
                array.setXKubernetesListType("set");
            }
            return array;
        }
        if (type.isMapLikeType()) {
            return map(type, path);
        }
        return withClassAnnotations(bean(type, path), classInfo, path);
    }

    private JSONSchemaProps map(JavaType type, SchemaPath path) {
        Class<?> key = type.getKeyType().getRawClass();
        if (key != String.class && !key.isEnum()) {
            throw path.error("a map's keys must be strings or enums, as JSON object keys are strings; "
                    + type.getRawClass().getSimpleName() + " has keys of " + key.getName());
        }
        Class<?> value = type.getContentType().getRawClass();
        if (value == Object.class || value == JsonNode.class) {
            return Schemas.anyObject();
        }
        return Schemas.mapOf(of(type.getContentType(), path.values()));
    }

    private JSONSchemaProps enumSchema(Class<?> type, SchemaPath path) {
        List<JsonNode> values = new ArrayList<>();
        for (Object constant : type.getEnumConstants()) {
            values.add(KubernetesJson.mapper().valueToTree(constant));
        }
        String schemaType;
        if (values.stream().allMatch(JsonNode::isString)) {
            schemaType = STRING;
        } else if (values.stream().allMatch(JsonNode::isIntegralNumber)) {
            schemaType = Schemas.INTEGER;
        } else {
            throw path.error("the constants of " + type.getName() + " are written as " + values
                    + ", neither all strings nor all integers");
        }
        JSONSchemaProps schema = Schemas.typed(schemaType);
        schema.setEnum(values);
        return schema;
    }

    /**
     * An object of the type's Jackson properties, sorted by name; or, for a type Jackson writes
     * otherwise, the schema of what it writes.
     */
    private JSONSchemaProps bean(JavaType type, SchemaPath path) {
        for (Enclosing outer : enclosing) {
            if (outer.type().equals(type)) {
                throw path.error("refers back to " + type.getRawClass().getName() + ", which encloses it at "
                        + (outer.path().path().isEmpty() ? "the root" : outer.path().path()) + "; a CRD schema "
                        + "cannot describe a recursive type (it has no $ref): break the cycle, or describe the "
                        + "property with @SchemaFrom(ObjectNode.class) to keep it unvalidated");
            }
        }
        BeanDescription description = context.introspectBeanDescription(type);
        if (description.getClassInfo().hasAnnotation(JsonTypeInfo.class)
                || description.getClassInfo().hasAnnotation(JsonSubTypes.class)) {
            throw path.error(type.getRawClass().getName() + " is polymorphic (@JsonTypeInfo), which a structural "
                    + "schema cannot describe: describe the property with @SchemaFrom");
        }
        AnnotatedMember jsonValue = description.findJsonValueAccessor();
        if (jsonValue != null) {
            return of(jsonValue.getType(), path);
        }
        ValueSerializer<Object> serializer = context.findValueSerializer(type);
        if (!(serializer instanceof BeanSerializerBase)) {
            return SerializerFormat.schemaOf(serializer, type, context)
                    .orElseThrow(() -> path.error(type.getRawClass().getName() + " is written by "
                            + serializer.getClass().getName() + ", which does not say what JSON it writes: "
                            + "describe it with @SchemaFrom"));
        }
        enclosing.push(new Enclosing(type, path));
        try {
            boolean root = path.path().isEmpty();
            Map<String, JSONSchemaProps> properties = new TreeMap<>();
            Set<String> required = new TreeSet<>();
            for (BeanPropertyDefinition property : description.findProperties()) {
                Class<?> raw = property.getRawPrimaryType();
                if (!property.couldSerialize() || raw == Void.class) {
                    continue;
                }
                String name = property.getName();
                SchemaPath at = path.property(name);
                if (root && RESOURCE_HEADER.contains(name)) {
                    properties.put(name, Schemas.typed(name.equals("metadata") ? OBJECT : STRING));
                    continue;
                }
                properties.put(name, property(property, at));
                if (property.isRequired() || JakartaConstraints.require(Annotations.of(property))) {
                    required.add(name);
                }
            }
            JSONSchemaProps schema = Schemas.typed(OBJECT);
            schema.setProperties(properties.isEmpty() ? null : new LinkedHashMap<>(properties));
            schema.setRequired(required.isEmpty() ? null : new ArrayList<>(required));
            if (root) {
                withClassAnnotations(schema, description.getClassInfo(), path);
            }
            return schema;
        } finally {
            enclosing.pop();
        }
    }

    /** The class's description, CEL rules and preserve-unknown-fields, wherever the class is used. */
    private JSONSchemaProps withClassAnnotations(JSONSchemaProps schema, AnnotatedClass classInfo, SchemaPath path) {
        String description = context.getAnnotationIntrospector().findClassDescription(context.getConfig(), classInfo);
        if (description != null && !description.isEmpty()) {
            schema.setDescription(description);
        }
        KubernetesExtensions.applyValueAnnotations(Annotations.of(classInfo), schema, path);
        return schema;
    }

    /**
     * {@code spec} or {@code status} when the class's {@code CustomResource} type argument carries
     * {@code @NotNull}: {@code extends CustomResource<@NotNull WidgetSpec, WidgetStatus>}.
     */
    private static Set<String> requiredByTypeArguments(Class<?> resource) {
        Set<String> required = new TreeSet<>();
        for (Class<?> type = resource; type != null && type != CustomResource.class; type = type.getSuperclass()) {
            AnnotatedType superclass = type.getAnnotatedSuperclass();
            if (superclass instanceof AnnotatedParameterizedType parameterized
                    && superclass.getType() instanceof ParameterizedType generic
                    && generic.getRawType() == CustomResource.class) {
                AnnotatedType[] arguments = parameterized.getAnnotatedActualTypeArguments();
                if (arguments[0].isAnnotationPresent(NotNull.class)) {
                    required.add("spec");
                }
                if (arguments[1].isAnnotationPresent(NotNull.class)) {
                    required.add("status");
                }
            }
        }
        return required;
    }
}
