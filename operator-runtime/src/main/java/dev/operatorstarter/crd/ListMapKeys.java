package dev.operatorstarter.crd;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * The properties that identify an item of a list of objects, which server-side apply then merges
 * item by item, and in which the API server refuses two items with the same keys.
 *
 * <p>On a list or array property whose items are objects; produces
 * {@code x-kubernetes-list-type: map} and {@code x-kubernetes-list-map-keys}:
 * <pre>{@code
 * @ListMapKeys("type") List<Condition> conditions;    x-kubernetes-list-map-keys: [type]
 *                                                     x-kubernetes-list-type: map
 * }</pre>
 * Each key must be a property of the items that is required or has a {@link Default}; the
 * generator fails otherwise.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.FIELD, ElementType.METHOD, ElementType.PARAMETER})
public @interface ListMapKeys {

    /** The key properties' JSON names, in the order given. */
    String[] value();
}
