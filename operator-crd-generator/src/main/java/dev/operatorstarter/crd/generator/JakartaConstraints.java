package dev.operatorstarter.crd.generator;

import static dev.operatorstarter.crd.generator.Schemas.ARRAY;
import static dev.operatorstarter.crd.generator.Schemas.INTEGER;
import static dev.operatorstarter.crd.generator.Schemas.NUMBER;
import static dev.operatorstarter.crd.generator.Schemas.OBJECT;
import static dev.operatorstarter.crd.generator.Schemas.STRING;

import io.fabric8.kubernetes.api.model.apiextensions.v1.JSONSchemaProps;
import jakarta.validation.constraints.DecimalMax;
import jakarta.validation.constraints.DecimalMin;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.Negative;
import jakarta.validation.constraints.NegativeOrZero;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotEmpty;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Positive;
import jakarta.validation.constraints.PositiveOrZero;
import jakarta.validation.constraints.Size;
import java.math.BigDecimal;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * Jakarta Validation constraints of a property, turned into the schema keywords that make the API
 * server check the same thing: bounds ({@code @Min}, {@code @Max}, {@code @DecimalMin},
 * {@code @DecimalMax}, {@code @Positive}, {@code @PositiveOrZero}, {@code @Negative},
 * {@code @NegativeOrZero}), sizes ({@code @Size}, {@code @NotEmpty}, {@code @NotBlank}: lengths of
 * strings, items of lists, properties of maps) and {@code @Pattern}. Where two constraints bound
 * the same keyword, the stricter one wins. A constraint on a value it cannot apply to (a
 * {@code @Size} on a number) is an error, as it is for a Jakarta validator.
 */
final class JakartaConstraints {

    private JakartaConstraints() {
    }

    /** Whether the constraints make the property required: {@code @NotNull}, {@code @NotEmpty}, {@code @NotBlank}. */
    static boolean require(Annotations annotations) {
        return annotations.has(NotNull.class) || annotations.has(NotEmpty.class) || annotations.has(NotBlank.class);
    }

    static void apply(Annotations annotations, JSONSchemaProps schema, SchemaPath path) {
        Min min = annotations.find(Min.class);
        if (min != null) {
            lowerBound(schema, path, "@Min", BigDecimal.valueOf(min.value()), false);
        }
        Max max = annotations.find(Max.class);
        if (max != null) {
            upperBound(schema, path, "@Max", BigDecimal.valueOf(max.value()), false);
        }
        DecimalMin decimalMin = annotations.find(DecimalMin.class);
        if (decimalMin != null) {
            lowerBound(schema, path, "@DecimalMin", decimal(decimalMin.value(), path), !decimalMin.inclusive());
        }
        DecimalMax decimalMax = annotations.find(DecimalMax.class);
        if (decimalMax != null) {
            upperBound(schema, path, "@DecimalMax", decimal(decimalMax.value(), path), !decimalMax.inclusive());
        }
        if (annotations.has(Positive.class)) {
            lowerBound(schema, path, "@Positive", BigDecimal.ZERO, true);
        }
        if (annotations.has(PositiveOrZero.class)) {
            lowerBound(schema, path, "@PositiveOrZero", BigDecimal.ZERO, false);
        }
        if (annotations.has(Negative.class)) {
            upperBound(schema, path, "@Negative", BigDecimal.ZERO, true);
        }
        if (annotations.has(NegativeOrZero.class)) {
            upperBound(schema, path, "@NegativeOrZero", BigDecimal.ZERO, false);
        }
        Size size = annotations.find(Size.class);
        if (size != null) {
            sizes(schema, path, "@Size", size.min(), size.max());
        }
        if (annotations.has(NotEmpty.class)) {
            sizes(schema, path, "@NotEmpty", 1, Integer.MAX_VALUE);
        }
        if (annotations.has(NotBlank.class)) {
            requireType(schema, path, "@NotBlank", STRING);
            sizes(schema, path, "@NotBlank", 1, Integer.MAX_VALUE);
        }
        Pattern pattern = annotations.find(Pattern.class);
        if (pattern != null) {
            requireType(schema, path, "@Pattern", STRING);
            if (pattern.flags().length > 0) {
                throw path.error("@Pattern flags have no equivalent in a CRD schema; write them into the "
                        + "expression, for example (?i)");
            }
            schema.setPattern(pattern.regexp());
        }
    }

    private static BigDecimal decimal(String value, SchemaPath path) {
        try {
            return new BigDecimal(value);
        } catch (NumberFormatException e) {
            throw path.error("\"" + value + "\" is not a decimal number");
        }
    }

    private static void lowerBound(JSONSchemaProps schema, SchemaPath path, String constraint, BigDecimal value,
            boolean exclusive) {
        requireNumeric(schema, path, constraint);
        BigDecimal current = schema.getMinimum() == null ? null : BigDecimal.valueOf(schema.getMinimum());
        int comparison = current == null ? 1 : value.compareTo(current);
        if (comparison > 0 || (comparison == 0 && exclusive)) {
            schema.setMinimum(value.doubleValue());
            schema.setExclusiveMinimum(exclusive ? Boolean.TRUE : null);
        }
    }

    private static void upperBound(JSONSchemaProps schema, SchemaPath path, String constraint, BigDecimal value,
            boolean exclusive) {
        requireNumeric(schema, path, constraint);
        BigDecimal current = schema.getMaximum() == null ? null : BigDecimal.valueOf(schema.getMaximum());
        int comparison = current == null ? -1 : value.compareTo(current);
        if (comparison < 0 || (comparison == 0 && exclusive)) {
            schema.setMaximum(value.doubleValue());
            schema.setExclusiveMaximum(exclusive ? Boolean.TRUE : null);
        }
    }

    /** Bounds the length of a string, the items of a list or the properties of a map. */
    private static void sizes(JSONSchemaProps schema, SchemaPath path, String constraint, int min, int max) {
        String type = schema.getType();
        if (STRING.equals(type)) {
            tighten(min, max, schema::getMinLength, schema::setMinLength, schema::getMaxLength, schema::setMaxLength);
        } else if (ARRAY.equals(type)) {
            tighten(min, max, schema::getMinItems, schema::setMinItems, schema::getMaxItems, schema::setMaxItems);
        } else if (OBJECT.equals(type)) {
            tighten(min, max, schema::getMinProperties, schema::setMinProperties, schema::getMaxProperties,
                    schema::setMaxProperties);
        } else {
            throw path.error(constraint + " applies to strings, collections, arrays and maps, not to "
                    + Schemas.describe(schema));
        }
    }

    private static void tighten(int min, int max, Supplier<Long> currentMin, Consumer<Long> setMin,
            Supplier<Long> currentMax, Consumer<Long> setMax) {
        if (min > 0 && (currentMin.get() == null || currentMin.get() < min)) {
            setMin.accept((long) min);
        }
        if (max < Integer.MAX_VALUE && (currentMax.get() == null || currentMax.get() > max)) {
            setMax.accept((long) max);
        }
    }

    private static void requireNumeric(JSONSchemaProps schema, SchemaPath path, String constraint) {
        if (!INTEGER.equals(schema.getType()) && !NUMBER.equals(schema.getType())) {
            throw path.error(constraint + " applies to numbers, not to " + Schemas.describe(schema));
        }
    }

    private static void requireType(JSONSchemaProps schema, SchemaPath path, String constraint, String type) {
        if (!type.equals(schema.getType())) {
            throw path.error(constraint + " applies to " + type + "s, not to " + Schemas.describe(schema));
        }
    }
}
