package dev.operatorstarter.crd;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Repeatable;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * A column that {@code kubectl get} shows for this version of a custom resource.
 *
 * <p>On a custom resource class, repeatable; each produces one entry of the version's
 * {@code additionalPrinterColumns}, in the order written:
 * <pre>{@code
 * @PrinterColumn(name = "URL", jsonPath = ".status.url", priority = 1)
 *
 * additionalPrinterColumns:
 *   - jsonPath: .status.url
 *     name: URL
 *     priority: 1
 *     type: string
 * }</pre>
 * A version with at least one column loses kubectl's default {@code Age} column: add one on
 * {@code .metadata.creationTimestamp} with type {@link Type#DATE} to keep it.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
@Repeatable(PrinterColumns.class)
public @interface PrinterColumn {

    /** The column's heading. */
    String name();

    /** A JSONPath into the object whose value the column shows, for example {@code .spec.replicas}. */
    String jsonPath();

    /** How the value is shown; default {@link Type#STRING}. */
    Type type() default Type.STRING;

    /** An OpenAPI format refining {@link #type()} (for example {@code int32}, {@code byte}); default none. */
    String format() default "";

    /**
     * 0 (the default) shows the column always; higher numbers only in the wide view
     * ({@code kubectl get -o wide}).
     */
    int priority() default 0;

    /** A human-readable description of the column; default none. */
    String description() default "";

    /** A printer column's type, written in lower case. */
    enum Type {
        INTEGER, NUMBER, STRING, BOOLEAN,
        /** A timestamp, shown as its age ({@code 5m}). */
        DATE
    }
}
