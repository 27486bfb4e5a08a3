package dev.operatorstarter.webhook;

import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A mutating handler's answer: the object as it should be stored, from which the runtime computes
 * the JSON Patch, or a denial.
 *
 * @param object the object as the handler wants it stored; null for a denial
 * @param verdict allowed (with warnings) or denied
 * @param <T> the handler's class
 */
public record Mutation<T>(@Nullable T object, AdmissionVerdict verdict) {

    public Mutation {
        Objects.requireNonNull(verdict, "verdict");
        if (verdict.allowed() && object == null) {
            throw new IllegalArgumentException("an allowed mutation needs the object to store");
        }
        if (!verdict.allowed() && object != null) {
            throw new IllegalArgumentException("a denied mutation has no object");
        }
    }

    /**
     * The request goes on with {@code object} stored: changed (in place or as a new object) or as
     * it came, for no patch at all.
     */
    public static <T> Mutation<T> allow(T object) {
        return new Mutation<>(Objects.requireNonNull(object, "object"), AdmissionVerdict.allow());
    }

    /** The request is refused with {@code message} (403 Forbidden). */
    public static <T> Mutation<T> deny(String message) {
        return deny(AdmissionVerdict.deny(message));
    }

    /** The request is refused with {@code denial}. */
    public static <T> Mutation<T> deny(AdmissionVerdict denial) {
        return new Mutation<>(null, denial);
    }

    /** This mutation with {@code warning} added. */
    public Mutation<T> withWarning(String warning) {
        return new Mutation<>(object, verdict.withWarning(warning));
    }
}
