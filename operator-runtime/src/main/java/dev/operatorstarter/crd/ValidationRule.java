package dev.operatorstarter.crd;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Repeatable;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * A CEL expression the API server evaluates on every create and update; the write is refused when
 * it is false. {@code self} is the value the rule sits on, {@code oldSelf} its previous value
 * (transition rules).
 *
 * <p>Repeatable. On a property (field, getter, record component) it checks that property's
 * value; on a class it checks every value of that class, wherever the class is used (on a custom
 * resource class: the whole object). Produces one entry of {@code x-kubernetes-validations}, class
 * rules first, in the order written:
 * <pre>{@code
 * @ValidationRule(rule = "self.minReplicas <= self.maxReplicas",
 *         message = "minReplicas must not exceed maxReplicas")
 *
 * x-kubernetes-validations:
 *   - message: minReplicas must not exceed maxReplicas
 *     rule: self.minReplicas <= self.maxReplicas
 * }</pre>
 * The server compiles every rule when the CRD is written and refuses a CRD whose rule does not
 * compile or whose cost is unbounded (give lists, maps and strings a maximum size).
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.TYPE, ElementType.FIELD, ElementType.METHOD, ElementType.PARAMETER})
@Repeatable(ValidationRules.class)
public @interface ValidationRule {

    /** The CEL expression, true when the value is valid. */
    String rule();

    /** The message of a refused write; default none (the server then quotes the rule). */
    String message() default "";

    /** A CEL expression that computes the message, preferred over {@link #message()}; default none. */
    String messageExpression() default "";

    /**
     * The reason of a refused write, one of {@code FieldValueInvalid} (the server's default),
     * {@code FieldValueForbidden}, {@code FieldValueRequired}, {@code FieldValueDuplicate};
     * default none.
     */
    String reason() default "";

    /**
     * The field a refused write names, relative to the value the rule sits on, for example
     * {@code .spec.maxReplicas}; default none (the rule's own place).
     */
    String fieldPath() default "";

    /**
     * Whether a transition rule also runs on create, or when the old value lacked the field,
     * with {@code oldSelf} an optional; default false (it does not run then).
     */
    boolean optionalOldSelf() default false;
}
