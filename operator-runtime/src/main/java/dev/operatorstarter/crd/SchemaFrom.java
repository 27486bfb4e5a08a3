package dev.operatorstarter.crd;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Describes a property, or every use of a class, as if it had another Java type: the escape hatch
 * for a type that a custom Jackson serializer writes differently from its bean properties, or
 * for a recursive type that a schema cannot spell out.
 *
 * <p>On a property (field, getter, record component) or a class; produces the schema of
 * {@link #value()} in place of the declared type's:
 * <pre>{@code
 * @SchemaFrom(String.class) Version version;             type: string
 * @SchemaFrom(ObjectNode.class) TreeNode tree;           type: object
 *                                                        x-kubernetes-preserve-unknown-fields: true
 * }</pre>
 * The property's own annotations (constraints, {@link Default}, ...) still apply.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.TYPE, ElementType.FIELD, ElementType.METHOD, ElementType.PARAMETER})
public @interface SchemaFrom {

    /** The Java type whose schema to use. */
    Class<?> value();
}
