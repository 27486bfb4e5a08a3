package dev.operatorstarter.crd;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * The value the API server writes into an object that leaves this property out (or, with
 * {@link NullAllowed}, sets it to null), when the object is created, updated or read from etcd.
 *
 * <p>On a property (field, getter, record component); produces the property's {@code default}.
 * For a property whose schema has {@code type: string} (strings, enums, timestamps) the value is
 * the string itself; for every other property it is a JSON literal of the property's type:
 * <pre>{@code
 * @Default("1") int replicas;                    default: 1
 * @Default("nginx:1.29") String image;           default: nginx:1.29
 * @Default("[\"a\", \"b\"]") List<String> tags;  default: [a, b]
 * @Default("{}") Limits limits;                  default: {}
 * }</pre>
 * The generator fails on a value that is not valid JSON or does not have the property's type.
 * The server applies the defaults of the properties inside a defaulted object too, so
 * {@code @Default("{}")} on an object fills in its properties' defaults.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.FIELD, ElementType.METHOD, ElementType.PARAMETER})
public @interface Default {

    /** The default: the string itself for a {@code string} property, JSON for any other. */
    String value();
}
