package dev.operatorstarter.cache;

import dev.operatorstarter.client.rest.ApiException;
import io.netty.handler.ssl.SslHandshakeTimeoutException;
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
     * time, the TLS handshake got no answer in time, or the connection was closed before any
     * response. Such attempts cost the server nothing. Other TLS failures are not counted here:
     * they are more often a configuration error than a server coming back.
     */
    static boolean unreachable(Throwable error) {
        boolean requestPhase = false;
        for (Throwable cause = error; cause != null; cause = cause.getCause()) {
            if (cause instanceof SslHandshakeTimeoutException) {
                return true; // connected, but nothing answered the handshake: a stopped or hung server
            }
            if (cause instanceof ApiException || cause instanceof SSLException) {
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
