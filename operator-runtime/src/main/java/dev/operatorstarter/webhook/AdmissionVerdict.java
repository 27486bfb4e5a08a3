package dev.operatorstarter.webhook;

import java.util.List;
import java.util.Objects;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;

/**
 * A validating handler's answer: allowed or denied, with warnings the client shows either way.
 *
 * <p>A denial's {@code message} is what the client sees: the API server answers the request with
 * {@code admission webhook "<name>" denied the request: <message>}, with the denial's HTTP
 * {@code code} and {@code reason} (403 {@code Forbidden} unless given).
 *
 * @param allowed whether the request may go on
 * @param message why it was denied (null when allowed)
 * @param reason a machine-readable reason in the Kubernetes Status sense ({@code Forbidden},
 *     {@code Invalid}...), null when allowed
 * @param code the HTTP status code for a denial (400 to 599), 200 when allowed
 * @param warnings warnings returned to the client (kubectl prints them), at most 120 characters each is wise
 */
public record AdmissionVerdict(boolean allowed, @Nullable String message, @Nullable String reason, int code,
        List<String> warnings) {

    private static final AdmissionVerdict ALLOWED = new AdmissionVerdict(true, null, null, 200, List.of());

    public AdmissionVerdict {
        warnings = List.copyOf(warnings);
        if (allowed && code != 200) {
            throw new IllegalArgumentException("an allowed verdict has code 200, not " + code);
        }
        if (!allowed) {
            Objects.requireNonNull(message, "a denial needs a message");
            if (code < 400 || code > 599) {
                throw new IllegalArgumentException("a denial's code is an HTTP error code (400 to 599), not " + code);
            }
        }
    }

    /** The request may go on. */
    public static AdmissionVerdict allow() {
        return ALLOWED;
    }

    /** The request is refused with {@code message}: 403 Forbidden. */
    public static AdmissionVerdict deny(String message) {
        return deny(403, "Forbidden", message);
    }

    /** The request is refused with {@code message}, HTTP {@code code} and Status {@code reason}. */
    public static AdmissionVerdict deny(int code, String reason, String message) {
        return new AdmissionVerdict(false, message, reason, code, List.of());
    }

    /** This verdict with {@code warning} added. */
    public AdmissionVerdict withWarning(String warning) {
        return new AdmissionVerdict(allowed, message, reason, code,
                Stream.concat(warnings.stream(), Stream.of(warning)).toList());
    }
}
