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

    /** client-go's jitter factor for lease retries: the renew deadline must leave room for one jittered retry. */
    public static final double LEASE_JITTER = 1.2;

    /**
     * Checks the timings of a lease as leader election does: each positive, the lease duration
     * greater than the renew deadline, and the renew deadline greater than {@value #LEASE_JITTER}
     * times the retry period.
     *
     * @throws NullPointerException naming the field that is null
     * @throws IllegalArgumentException naming the field that is out of range
     */
    public static void requireLeaseTimings(Duration leaseDuration, Duration renewDeadline, Duration retryPeriod) {
        requirePositive(leaseDuration, "leaseDuration");
        requirePositive(renewDeadline, "renewDeadline");
        requirePositive(retryPeriod, "retryPeriod");
        if (leaseDuration.compareTo(renewDeadline) <= 0) {
            throw new IllegalArgumentException("leaseDuration (" + leaseDuration + ") must be greater than renewDeadline ("
                    + renewDeadline + ")");
        }
        if (renewDeadline.toNanos() <= LEASE_JITTER * retryPeriod.toNanos()) {
            throw new IllegalArgumentException("renewDeadline (" + renewDeadline + ") must be greater than "
                    + LEASE_JITTER + " × retryPeriod (" + retryPeriod + ")");
        }
    }
}
