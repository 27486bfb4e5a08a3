package dev.operatorstarter.client.rest;

import java.util.Optional;
import java.util.function.Predicate;

/**
 * Predicates over failures in the style of client-go's {@code apierrors.IsNotFound}: each looks
 * at the throwable and its causes for an {@link ApiException} of the named kind.
 */
public final class ApiErrors {

    private ApiErrors() {
    }

    public static boolean isNotFound(Throwable error) {
        return find(error, ApiException.NotFound.class::isInstance);
    }

    public static boolean isAlreadyExists(Throwable error) {
        return find(error, ApiException.AlreadyExists.class::isInstance);
    }

    public static boolean isConflict(Throwable error) {
        return find(error, ApiException.Conflict.class::isInstance);
    }

    public static boolean isForbidden(Throwable error) {
        return find(error, ApiException.Forbidden.class::isInstance);
    }

    public static boolean isUnauthorized(Throwable error) {
        return find(error, ApiException.Unauthorized.class::isInstance);
    }

    public static boolean isInvalid(Throwable error) {
        return find(error, ApiException.Invalid.class::isInstance);
    }

    public static boolean isBadRequest(Throwable error) {
        return find(error, ApiException.BadRequest.class::isInstance);
    }

    /** Reason {@code Gone} or {@code Expired} (410): relist from scratch. */
    public static boolean isGone(Throwable error) {
        return find(error, ApiException.Gone.class::isInstance);
    }

    /** Reason {@code Expired}: an expired continue token or resource version. */
    public static boolean isResourceExpired(Throwable error) {
        return find(error, e -> e instanceof ApiException.Gone gone && gone.expired());
    }

    public static boolean isTooManyRequests(Throwable error) {
        return find(error, ApiException.TooManyRequests.class::isInstance);
    }

    public static boolean isServerTimeout(Throwable error) {
        return find(error, ApiException.ServerTimeout.class::isInstance);
    }

    public static boolean isInternalError(Throwable error) {
        return find(error, ApiException.InternalError.class::isInstance);
    }

    public static boolean isServiceUnavailable(Throwable error) {
        return find(error, ApiException.ServiceUnavailable.class::isInstance);
    }

    /** The first error of {@code type} in {@code error}'s cause chain, {@code error} included. */
    public static <E extends Throwable> Optional<E> cause(Throwable error, Class<E> type) {
        return first(error, type::isInstance).map(type::cast);
    }

    private static boolean find(Throwable error, Predicate<Throwable> kind) {
        return first(error, kind).isPresent();
    }

    private static Optional<Throwable> first(Throwable error, Predicate<Throwable> kind) {
        for (Throwable current = error; current != null; current = current.getCause()) {
            if (kind.test(current)) {
                return Optional.of(current);
            }
            if (current.getCause() == current) {
                break;
            }
        }
        return Optional.empty();
    }
}
