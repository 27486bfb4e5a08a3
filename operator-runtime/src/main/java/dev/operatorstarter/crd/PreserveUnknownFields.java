package dev.operatorstarter.crd;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Keeps fields the schema does not name, which the API server otherwise drops ("prunes") before
 * storing an object. The named properties are still validated.
 *
 * <p>On a property (field, getter, record component) or a class; produces
 * {@code x-kubernetes-preserve-unknown-fields: true} on that property, or wherever the class is
 * used. Properties of type {@code Object}, {@code JsonNode} and {@code Map<String, Object>} have
 * it without this annotation.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.TYPE, ElementType.FIELD, ElementType.METHOD, ElementType.PARAMETER})
public @interface PreserveUnknownFields {
}
