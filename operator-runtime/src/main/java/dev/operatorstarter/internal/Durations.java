package dev.operatorstarter.internal;

import java.time.Duration;
import java.util.Objects;

/**
 * The duration checks options records and constructors share, so that every one of them rejects a
 * bad value with the same message naming the field. Not API.
 */
public final class Durations {

    private Durations() {
    }

    /**
     * {@code value} when it is above zero.
     *
     * @throws NullPointerException naming {@code field} when {@code value} is null
     * @throws IllegalArgumentException "{@code field} must be positive, was {@code value}" otherwise
     */
    public static Duration requirePositive(Duration value, String field) {
        Objects.requireNonNull(value, field);
        if (value.isNegative() || value.isZero()) {
            throw new IllegalArgumentException(field + " must be positive, was " + value);
        }
        return value;
    }

    /**
     * {@code value} when it is zero or more.
     *
     * @throws NullPointerException naming {@code field} when {@code value} is null
     * @throws IllegalArgumentException "{@code field} must not be negative, was {@code value}" otherwise
     */
    public static Duration requireNotNegative(Duration value, String field) {
        Objects.requireNonNull(value, field);
        if (value.isNegative()) {
            throw new IllegalArgumentException(field + " must not be negative, was " + value);
        }
        return value;
    }
}
