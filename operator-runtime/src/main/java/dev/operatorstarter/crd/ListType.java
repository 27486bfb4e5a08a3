package dev.operatorstarter.crd;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * How server-side apply merges a list that several managers write, and which duplicates the API
 * server refuses.
 *
 * <p>On a list, set or array property; produces {@code x-kubernetes-list-type}:
 * <pre>{@code
 * @ListType(ListType.Kind.ATOMIC) List<String> args;     x-kubernetes-list-type: atomic
 * }</pre>
 * Without this annotation a {@code Set} of strings, numbers, booleans or enums is a {@code set};
 * every other list has no list type, which the server treats as {@code atomic}. For
 * {@link Kind#MAP} name the keys with {@link ListMapKeys}, which alone implies {@code MAP}.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.FIELD, ElementType.METHOD, ElementType.PARAMETER})
public @interface ListType {

    Kind value();

    /** The values of {@code x-kubernetes-list-type}. */
    enum Kind {
        /** The list is replaced whole; one manager owns it ({@code atomic}). */
        ATOMIC,
        /** Scalar items without duplicates, each owned by whoever added it ({@code set}). */
        SET,
        /**
         * Objects identified by the {@link ListMapKeys} properties, merged item by item like a map
         * ({@code map}).
         */
        MAP
    }
}
