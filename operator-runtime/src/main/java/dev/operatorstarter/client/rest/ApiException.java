package dev.operatorstarter.client.rest;

import io.fabric8.kubernetes.api.model.Status;
import io.fabric8.kubernetes.api.model.StatusCause;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * The API server answered with an error {@link Status}. The nested subclasses name the common
 * reasons, so callers can catch what they handle; {@link ApiErrors} has client-go style
 * predicates ({@code isNotFound}, {@code isConflict}, ...) that also look through causes.
 *
 * <p>Which class is thrown follows the status's {@code reason}, and its HTTP code when the reason
 * is missing, as client-go's {@code errors} package does.
 */
public class ApiException extends KubernetesClientException {

    private static final long serialVersionUID = 1L;

    private final int code;
    private final String reason;
    private final transient Status status;
    private final String request;

    ApiException(Status status, String request) {
        super(request + " failed: " + describe(status));
        this.status = status;
        this.code = status.getCode() == null ? 0 : status.getCode();
        this.reason = status.getReason() == null ? "" : status.getReason();
        this.request = request;
    }

    private static String describe(Status status) {
        StringBuilder text = new StringBuilder();
        text.append(status.getCode()).append(' ').append(status.getReason() == null ? "" : status.getReason());
        if (status.getMessage() != null && !status.getMessage().isEmpty()) {
            text.append(": ").append(status.getMessage());
        }
        return text.toString().trim();
    }

    /** The HTTP status code, for example 404. */
    public int code() {
        return code;
    }

    /** The status reason, for example {@code NotFound}; empty when the server gave none. */
    public String reason() {
        return reason;
    }

    /** The full status the server returned (or one built from the HTTP code when the body was not a Status). */
    public Status status() {
        return status;
    }

    /** The method and URL of the failed request, for example {@code GET https://host/api/v1/namespaces/a/pods/b}. */
    public String request() {
        return request;
    }

    /** The delay the server asked for ({@code Retry-After} or {@code details.retryAfterSeconds}), if any. */
    public Optional<Duration> retryAfter() {
        if (status.getDetails() != null && status.getDetails().getRetryAfterSeconds() != null
                && status.getDetails().getRetryAfterSeconds() > 0) {
            return Optional.of(Duration.ofSeconds(status.getDetails().getRetryAfterSeconds()));
        }
        return Optional.empty();
    }

    /** The field-level causes of the failure (mostly for {@link Invalid}). */
    public List<StatusCause> causes() {
        return status.getDetails() == null || status.getDetails().getCauses() == null ? List.of()
                : List.copyOf(status.getDetails().getCauses());
    }

    /** 400 BadRequest. */
    public static final class BadRequest extends ApiException {
        private static final long serialVersionUID = 1L;

        BadRequest(Status status, String request) {
            super(status, request);
        }
    }

    /** 401 Unauthorized: the credentials were missing, wrong or expired. */
    public static final class Unauthorized extends ApiException {
        private static final long serialVersionUID = 1L;

        Unauthorized(Status status, String request) {
            super(status, request);
        }
    }

    /** 403 Forbidden: RBAC (or an admission plugin) refused the request. */
    public static final class Forbidden extends ApiException {
        private static final long serialVersionUID = 1L;

        Forbidden(Status status, String request) {
            super(status, request);
        }
    }

    /** 404 NotFound. */
    public static final class NotFound extends ApiException {
        private static final long serialVersionUID = 1L;

        NotFound(Status status, String request) {
            super(status, request);
        }
    }

    /** 409 AlreadyExists: a create named an object that exists. */
    public static final class AlreadyExists extends ApiException {
        private static final long serialVersionUID = 1L;

        AlreadyExists(Status status, String request) {
            super(status, request);
        }
    }

    /**
     * 409 Conflict: the object changed since it was read (stale {@code resourceVersion}), or a
     * server-side apply conflicts with another field manager.
     */
    public static final class Conflict extends ApiException {
        private static final long serialVersionUID = 1L;

        Conflict(Status status, String request) {
            super(status, request);
        }
    }

    /** 410 Gone or Expired: a resourceVersion or continue token too old to serve; relist. */
    public static final class Gone extends ApiException {
        private static final long serialVersionUID = 1L;

        Gone(Status status, String request) {
            super(status, request);
        }

        /** {@code true} for reason {@code Expired} (an expired continue token or resource version). */
        public boolean expired() {
            return "Expired".equals(reason());
        }
    }

    /** 422 Invalid: the object failed validation; {@link #causes()} names the fields. */
    public static final class Invalid extends ApiException {
        private static final long serialVersionUID = 1L;

        Invalid(Status status, String request) {
            super(status, request);
        }
    }

    /** 429 TooManyRequests: throttled by API Priority and Fairness; see {@link #retryAfter()}. */
    public static final class TooManyRequests extends ApiException {
        private static final long serialVersionUID = 1L;

        TooManyRequests(Status status, String request) {
            super(status, request);
        }
    }

    /** 500 InternalError. */
    public static final class InternalError extends ApiException {
        private static final long serialVersionUID = 1L;

        InternalError(Status status, String request) {
            super(status, request);
        }
    }

    /** The server could not finish in time: reasons {@code ServerTimeout} and {@code Timeout} (504). */
    public static final class ServerTimeout extends ApiException {
        private static final long serialVersionUID = 1L;

        ServerTimeout(Status status, String request) {
            super(status, request);
        }
    }

    /** 503 ServiceUnavailable. */
    public static final class ServiceUnavailable extends ApiException {
        private static final long serialVersionUID = 1L;

        ServiceUnavailable(Status status, String request) {
            super(status, request);
        }
    }

    /** The exception for {@code status}: the subclass its reason (or code) names. */
    public static ApiException fromStatus(Status status, String request) {
        String reason = status.getReason() == null ? "" : status.getReason();
        int code = status.getCode() == null ? 0 : status.getCode();
        return switch (reason) {
            case "BadRequest" -> new BadRequest(status, request);
            case "Unauthorized" -> new Unauthorized(status, request);
            case "Forbidden" -> new Forbidden(status, request);
            case "NotFound" -> new NotFound(status, request);
            case "AlreadyExists" -> new AlreadyExists(status, request);
            case "Conflict" -> new Conflict(status, request);
            case "Gone", "Expired" -> new Gone(status, request);
            case "Invalid" -> new Invalid(status, request);
            case "TooManyRequests" -> new TooManyRequests(status, request);
            case "InternalError" -> new InternalError(status, request);
            case "ServerTimeout", "Timeout" -> new ServerTimeout(status, request);
            case "ServiceUnavailable" -> new ServiceUnavailable(status, request);
            default -> ofCode(code, status, request);
        };
    }

    private static ApiException ofCode(int code, Status status, String request) {
        return switch (code) {
            case 400 -> new BadRequest(status, request);
            case 401 -> new Unauthorized(status, request);
            case 403 -> new Forbidden(status, request);
            case 404 -> new NotFound(status, request);
            case 409 -> new Conflict(status, request);
            case 410 -> new Gone(status, request);
            case 422 -> new Invalid(status, request);
            case 429 -> new TooManyRequests(status, request);
            case 500 -> new InternalError(status, request);
            case 503 -> new ServiceUnavailable(status, request);
            case 504 -> new ServerTimeout(status, request);
            default -> new ApiException(status, request);
        };
    }

    /** The reason Kubernetes uses for an HTTP code, for bodies that are not a Status. */
    static @Nullable String reasonForCode(int code) {
        return switch (code) {
            case 400 -> "BadRequest";
            case 401 -> "Unauthorized";
            case 403 -> "Forbidden";
            case 404 -> "NotFound";
            case 405 -> "MethodNotAllowed";
            case 406 -> "NotAcceptable";
            case 409 -> "Conflict";
            case 410 -> "Gone";
            case 413 -> "RequestEntityTooLarge";
            case 415 -> "UnsupportedMediaType";
            case 422 -> "Invalid";
            case 429 -> "TooManyRequests";
            case 500 -> "InternalError";
            case 503 -> "ServiceUnavailable";
            case 504 -> "Timeout";
            default -> null;
        };
    }
}
