package dev.operatorstarter.crd;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * How server-side apply merges an object or map that several managers write.
 *
 * <p>On a map or object property; produces {@code x-kubernetes-map-type}:
 * <pre>{@code
 * @MapType(MapType.Kind.ATOMIC) Map<String, String> selector;   x-kubernetes-map-type: atomic
 * }</pre>
 * Without it, a map or object is {@code granular}: each key has its own owner.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.FIELD, ElementType.METHOD, ElementType.PARAMETER})
public @interface MapType {

    Kind value();

    /** The values of {@code x-kubernetes-map-type}. */
    enum Kind {
        /** Each key is merged and owned on its own ({@code granular}). */
        GRANULAR,
        /** The map is replaced whole; one manager owns it ({@code atomic}). */
        ATOMIC
    }
}
