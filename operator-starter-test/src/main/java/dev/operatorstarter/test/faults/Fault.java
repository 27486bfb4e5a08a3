package dev.operatorstarter.test.faults;

import java.time.Duration;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * What the {@link FaultProxy} does to a request that an {@link Injection} selects. Create one with
 * the static factories.
 *
 * <p>The body faults ({@link CutStream}, {@link Truncate}, {@link Malform}) count <em>events</em>:
 * lines of the response body ending in {@code \n}, which is how the API server writes watch events
 * (one JSON object per line); a list's JSON body is one line. While one of them applies, the proxy
 * asks the server for an uncompressed body (it drops {@code Accept-Encoding}) so it can see the
 * lines.
 */
public sealed interface Fault {

    /** Forwards the request unchanged. The injection counts it and later injections still apply. */
    static Fault none() {
        return new None();
    }

    /** Waits {@code beforeForwarding} before sending the request to the server. */
    static Fault latency(Duration beforeForwarding) {
        return new Latency(beforeForwarding, Duration.ZERO);
    }

    /**
     * Waits {@code beforeForwarding} before sending the request to the server, and
     * {@code beforeResponse} after the server's response head arrived, before passing it on.
     */
    static Fault latency(Duration beforeForwarding, Duration beforeResponse) {
        return new Latency(beforeForwarding, beforeResponse);
    }

    /**
     * Holds the request, sending nothing back, until {@link Injection#release()} or
     * {@link Injection#remove()} forwards it; the client's own timeout may end it first. Held
     * requests still held when the proxy closes are cut, not forwarded.
     */
    static Fault hang() {
        return new Hang();
    }

    /** Answers with {@code code} and a Kubernetes {@code Status} body, without forwarding. */
    static Fault status(int code) {
        return new Respond(code, null);
    }

    /** {@code 429 Too Many Requests} with {@code Retry-After} (whole seconds, rounded up) and {@code details.retryAfterSeconds}. */
    static Fault tooManyRequests(Duration retryAfter) {
        return new Respond(429, retryAfter);
    }

    /** {@code 503 Service Unavailable}, without forwarding. */
    static Fault serviceUnavailable() {
        return new Respond(503, null);
    }

    /** {@code 504 Gateway Timeout}, without forwarding. */
    static Fault gatewayTimeout() {
        return new Respond(504, null);
    }

    /** {@code 500 Internal Server Error}, without forwarding. */
    static Fault internalError() {
        return new Respond(500, null);
    }

    /**
     * Forwards the response's first {@code events} complete events, then half of the next event's
     * bytes, then closes the connection abruptly (no TLS close_notify): the HTTP message ends in the middle of an event (for a
     * chunked response, in the middle of a chunk). A response that ends first is passed on whole.
     */
    static Fault cutAfterEvents(int events) {
        return new CutStream(events);
    }

    /**
     * A body cut short with a correct end of the HTTP message: for a list, half of its JSON, with a
     * {@code Content-Length} that matches (or a last chunk), so the client sees a complete response
     * whose JSON ends too early.
     */
    static Fault truncatedBody() {
        return new Truncate(0);
    }

    /** Forwards the first {@code events} complete events, then half of the next one, then ends the response correctly. */
    static Fault truncatedAfterEvents(int events) {
        return new Truncate(events);
    }

    /** Replaces the body with text that is not JSON ({@link Malform#BODY}), ending the response correctly. */
    static Fault malformedBody() {
        return new Malform(0);
    }

    /** Forwards the first {@code events} complete events, then one line that is not JSON, then ends the response correctly. */
    static Fault malformedAfterEvents(int events) {
        return new Malform(events);
    }

    /**
     * Forwards the request with header {@code name} set to {@code value} (replacing what the client
     * sent): for example {@code requestHeader("Accept", "application/json")} plays a server, such as
     * an aggregated API, that ignores content negotiation and answers with full objects.
     */
    static Fault requestHeader(String name, String value) {
        return new RequestHeader(name, value);
    }

    /** See {@link Fault#none()}. */
    record None() implements Fault {
    }

    /** See {@link Fault#requestHeader(String, String)}. */
    record RequestHeader(String name, String value) implements Fault {
        public RequestHeader {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(value, "value");
            if (name.isBlank() || name.chars().anyMatch(c -> c <= ' ' || c == ':')) {
                throw new IllegalArgumentException("not a header name: \"" + name + "\"");
            }
            if (value.chars().anyMatch(c -> c == '\r' || c == '\n')) {
                throw new IllegalArgumentException("a header value must not contain a line break");
            }
        }
    }

    /** See {@link Fault#latency(Duration, Duration)}. Both durations are zero or positive. */
    record Latency(Duration beforeForwarding, Duration beforeResponse) implements Fault {
        public Latency {
            requireNotNegative(beforeForwarding, "beforeForwarding");
            requireNotNegative(beforeResponse, "beforeResponse");
        }
    }

    /** See {@link Fault#hang()}. */
    record Hang() implements Fault {
    }

    /**
     * See {@link Fault#status(int)}.
     *
     * @param code an error status, 400 to 599
     * @param retryAfter sent as {@code Retry-After} when not {@code null}
     */
    record Respond(int code, @Nullable Duration retryAfter) implements Fault {
        public Respond {
            if (code < 400 || code > 599) {
                throw new IllegalArgumentException("code must be an error status (400 to 599), was " + code);
            }
            if (retryAfter != null) {
                requireNotNegative(retryAfter, "retryAfter");
            }
        }

        /** {@code retryAfter} in whole seconds, rounded up, or -1 without one. */
        long retryAfterSeconds() {
            if (retryAfter == null) {
                return -1;
            }
            long seconds = retryAfter.toSeconds();
            return retryAfter.equals(Duration.ofSeconds(seconds)) ? seconds : seconds + 1;
        }
    }

    /** See {@link Fault#cutAfterEvents(int)}. */
    record CutStream(int afterEvents) implements Fault {
        public CutStream {
            requireNotNegative(afterEvents, "afterEvents");
        }
    }

    /** See {@link Fault#truncatedAfterEvents(int)}. */
    record Truncate(int afterEvents) implements Fault {
        public Truncate {
            requireNotNegative(afterEvents, "afterEvents");
        }
    }

    /** See {@link Fault#malformedAfterEvents(int)}. */
    record Malform(int afterEvents) implements Fault {

        /** The line that replaces the body or the event: it starts like JSON and is not. */
        public static final String BODY = "{\"kind\": malformed by the fault proxy]\n";

        public Malform {
            requireNotNegative(afterEvents, "afterEvents");
        }
    }

    private static void requireNotNegative(Duration duration, String name) {
        Objects.requireNonNull(duration, name);
        if (duration.isNegative()) {
            throw new IllegalArgumentException(name + " must not be negative, was " + duration);
        }
    }

    private static void requireNotNegative(int value, String name) {
        if (value < 0) {
            throw new IllegalArgumentException(name + " must not be negative, was " + value);
        }
    }
}
