package dev.operatorstarter.crd.generator;

import io.fabric8.kubernetes.api.model.apiextensions.v1.JSONSchemaProps;
import java.util.Optional;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JavaType;
import tools.jackson.databind.SerializationContext;
import tools.jackson.databind.ValueSerializer;
import tools.jackson.databind.jsonFormatVisitors.JsonArrayFormatVisitor;
import tools.jackson.databind.jsonFormatVisitors.JsonBooleanFormatVisitor;
import tools.jackson.databind.jsonFormatVisitors.JsonFormatVisitorWrapper;
import tools.jackson.databind.jsonFormatVisitors.JsonIntegerFormatVisitor;
import tools.jackson.databind.jsonFormatVisitors.JsonMapFormatVisitor;
import tools.jackson.databind.jsonFormatVisitors.JsonNumberFormatVisitor;
import tools.jackson.databind.jsonFormatVisitors.JsonObjectFormatVisitor;
import tools.jackson.databind.jsonFormatVisitors.JsonStringFormatVisitor;

/**
 * What a serializer that is not a bean serializer writes, as it tells Jackson's format visitor:
 * a string ({@code Locale}, {@code Path}, {@code Class}, a {@code ToStringSerializer}), a number,
 * a boolean, or an object or array of unknown shape (kept as written). Empty when the serializer
 * does not say (a custom serializer that does not override {@code acceptJsonFormatVisitor}).
 */
final class SerializerFormat extends JsonFormatVisitorWrapper.Base {

    private @Nullable Supplier<JSONSchemaProps> schema;

    private SerializerFormat(SerializationContext context) {
        super(context);
    }

    static Optional<JSONSchemaProps> schemaOf(ValueSerializer<Object> serializer, JavaType type,
            SerializationContext context) {
        SerializerFormat format = new SerializerFormat(context);
        serializer.acceptJsonFormatVisitor(format, type);
        return Optional.ofNullable(format.schema).map(Supplier::get);
    }

    @Override
    public @Nullable JsonStringFormatVisitor expectStringFormat(JavaType type) {
        schema = () -> Schemas.typed(Schemas.STRING);
        return null;
    }

    @Override
    public @Nullable JsonIntegerFormatVisitor expectIntegerFormat(JavaType type) {
        schema = () -> Schemas.typed(Schemas.INTEGER);
        return null;
    }

    @Override
    public @Nullable JsonNumberFormatVisitor expectNumberFormat(JavaType type) {
        schema = () -> Schemas.typed(Schemas.NUMBER);
        return null;
    }

    @Override
    public @Nullable JsonBooleanFormatVisitor expectBooleanFormat(JavaType type) {
        schema = () -> Schemas.typed(Schemas.BOOLEAN);
        return null;
    }

    @Override
    public @Nullable JsonObjectFormatVisitor expectObjectFormat(JavaType type) {
        schema = Schemas::anyObject;
        return null;
    }

    @Override
    public @Nullable JsonMapFormatVisitor expectMapFormat(JavaType type) {
        schema = Schemas::anyObject;
        return null;
    }

    @Override
    public @Nullable JsonArrayFormatVisitor expectArrayFormat(JavaType type) {
        schema = () -> Schemas.arrayOf(Schemas.anyValue());
        return null;
    }
}
