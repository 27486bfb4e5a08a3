package dev.operatorstarter.test.faults;

import dev.operatorstarter.test.internal.KubernetesApi;
import java.io.IOException;
import java.io.OutputStream;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.node.ObjectNode;

/** A response the proxy makes up: an error status with a Kubernetes {@code Status} body, as the API server sends. */
final class StatusResponse {

    private static final Map<Integer, String> REASONS = Map.ofEntries(Map.entry(400, "BadRequest"),
            Map.entry(401, "Unauthorized"), Map.entry(403, "Forbidden"), Map.entry(404, "NotFound"),
            Map.entry(405, "MethodNotAllowed"), Map.entry(409, "Conflict"), Map.entry(410, "Expired"),
            Map.entry(413, "RequestEntityTooLarge"), Map.entry(415, "UnsupportedMediaType"),
            Map.entry(422, "Invalid"), Map.entry(429, "TooManyRequests"), Map.entry(500, "InternalError"),
            Map.entry(503, "ServiceUnavailable"), Map.entry(504, "Timeout"));
    private static final Map<Integer, String> PHRASES = Map.ofEntries(Map.entry(400, "Bad Request"),
            Map.entry(401, "Unauthorized"), Map.entry(403, "Forbidden"), Map.entry(404, "Not Found"),
            Map.entry(405, "Method Not Allowed"), Map.entry(409, "Conflict"), Map.entry(410, "Gone"),
            Map.entry(413, "Content Too Large"), Map.entry(415, "Unsupported Media Type"),
            Map.entry(422, "Unprocessable Entity"), Map.entry(429, "Too Many Requests"),
            Map.entry(500, "Internal Server Error"), Map.entry(502, "Bad Gateway"),
            Map.entry(503, "Service Unavailable"), Map.entry(504, "Gateway Timeout"));

    private StatusResponse() {
    }

    /**
     * Writes a complete response (does not flush).
     *
     * @param retryAfterSeconds sent as {@code Retry-After} and {@code details.retryAfterSeconds} when not negative
     * @param close whether to announce that the connection closes after it
     */
    static void write(OutputStream out, int code, String message, long retryAfterSeconds, boolean close)
            throws IOException {
        ObjectNode status = KubernetesApi.object().put("kind", "Status").put("apiVersion", "v1");
        status.putObject("metadata");
        status.put("status", "Failure").put("message", message).put("reason", REASONS.getOrDefault(code, ""));
        if (retryAfterSeconds >= 0) {
            status.putObject("details").put("retryAfterSeconds", retryAfterSeconds);
        }
        status.put("code", code);
        byte[] body = KubernetesApi.json().writeValueAsBytes(status);
        HttpHead head = new HttpHead("HTTP/1.1 " + code + " " + PHRASES.getOrDefault(code, "Error"), List.of())
                .with("Content-Type", "application/json")
                .with("Content-Length", Integer.toString(body.length));
        if (retryAfterSeconds >= 0) {
            head = head.with("Retry-After", Long.toString(retryAfterSeconds));
        }
        if (close) {
            head = head.with("Connection", "close");
        }
        head.writeTo(out);
        out.write(body);
    }
}
