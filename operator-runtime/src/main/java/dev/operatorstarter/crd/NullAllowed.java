package dev.operatorstarter.crd;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Lets a property hold an explicit {@code null}, which the API server otherwise drops before
 * storing the object (and before applying a {@link Default}).
 *
 * <p>On a property (field, getter, record component); produces {@code nullable: true}.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.FIELD, ElementType.METHOD, ElementType.PARAMETER})
public @interface NullAllowed {
}
