package dev.operatorstarter.cache;

import dev.operatorstarter.client.rest.ApiErrors;
import dev.operatorstarter.client.rest.ApiException;
import io.netty.handler.ssl.SslHandshakeTimeoutException;
import java.io.IOException;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.Optional;
import javax.net.ssl.SSLException;
import org.springframework.web.reactive.function.client.WebClientRequestException;

/** What a failed list or watch says about the server, for choosing how long to wait before the next one. */
final class Failures {

    private Failures() {
    }

    /**
     * True when the request never got an answer: the connection was refused, could not be made in
     * time, the TLS handshake got no answer in time or was cut (reset, closed), or the connection
     * was closed before any response. Such attempts cost the server nothing. Other TLS failures
     * (a certificate the client does not trust) are not counted here: they are a configuration
     * error, not a server coming back.
     */
    static boolean unreachable(Throwable error) {
        boolean requestPhase = false;
        for (Throwable cause = error; cause != null; cause = cause.getCause()) {
            if (cause instanceof SslHandshakeTimeoutException) {
                return true; // connected, but nothing answered the handshake: a stopped or hung server
            }
            if (cause instanceof SSLException) {
                // Reset or closed during the handshake: the path to the server broke, as when a
                // server goes away. A certificate the client rejects is a configuration error.
                return endedByTheConnection(cause);
            }
            if (cause instanceof ApiException) {
                return false;
            }
            if (cause instanceof ConnectException || cause instanceof NoRouteToHostException
                    || cause instanceof UnknownHostException) {
                return true;
            }
            if (cause instanceof WebClientRequestException) {
                requestPhase = true; // failed before a response: connecting, writing, or closed before answering
            }
            if (cause.getCause() == cause) {
                break;
            }
        }
        return requestPhase;
    }

    private static boolean endedByTheConnection(Throwable tlsFailure) {
        for (Throwable cause = tlsFailure.getCause(); cause != null && cause != cause.getCause(); cause = cause.getCause()) {
            if (cause instanceof IOException && !(cause instanceof SSLException)) {
                return true;
            }
        }
        return false;
    }

    /**
     * True when the resourceVersion or continue token a request read from is gone: 410 Gone, or
     * "too old resource version" (expired). The answer is to read again from a newer version.
     */
    static boolean expired(Throwable error) {
        return ApiErrors.isResourceExpired(error) || ApiErrors.isGone(error);
    }

    /** The delay the server asked for ({@code Retry-After} or {@code retryAfterSeconds}: 429, 503, 504), if any. */
    static Optional<Duration> retryAfter(Throwable error) {
        for (Throwable cause = error; cause != null; cause = cause.getCause()) {
            if (cause instanceof ApiException api) {
                return api.retryAfter();
            }
            if (cause.getCause() == cause) {
                break;
            }
        }
        return Optional.empty();
    }
}
