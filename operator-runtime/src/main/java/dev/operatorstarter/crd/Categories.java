package dev.operatorstarter.crd;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * The categories a custom resource belongs to, so that {@code kubectl get <category>} lists it with
 * the other resources of that category (for example {@code all}).
 *
 * <p>On a custom resource class; produces {@code spec.names.categories}:
 * <pre>{@code
 * @Categories({"all", "sites"})      names:
 *                                       categories: [all, sites]
 * }</pre>
 * Every version of a resource must name the same categories.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
public @interface Categories {

    /** The category names, lower case. */
    String[] value();
}
