package dev.operatorstarter.test.internal;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import javax.net.ssl.SSLContext;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * A deliberately small JSON-over-HTTPS client for the harness itself (namespaces, CRDs, smoke
 * tests), on the JDK's HTTP client. It is independent of the operator runtime so that the
 * runtime's own tests can use the harness without testing the runtime with itself. Not API.
 *
 * <p>Thread-safe. Every call is synchronous with a 30 s request timeout.
 */
public final class KubernetesApi {

    private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(30);
    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final URI server;
    private final @Nullable String bearerToken;
    private final HttpClient http;

    private KubernetesApi(URI server, SSLContext ssl, @Nullable String bearerToken) {
        this.server = server;
        this.bearerToken = bearerToken;
        this.http = HttpClient.newBuilder().sslContext(ssl).connectTimeout(Duration.ofSeconds(10))
                .version(HttpClient.Version.HTTP_1_1).build();
    }

    /** A client for {@code server} that trusts {@code ssl}'s authorities and sends the token, if any. */
    public static KubernetesApi of(URI server, SSLContext ssl, @Nullable String bearerToken) {
        return new KubernetesApi(server, ssl, bearerToken);
    }

    /** The same server and TLS trust, authenticated with {@code token} instead. */
    public KubernetesApi withBearerToken(SSLContext ssl, String token) {
        return new KubernetesApi(server, ssl, token);
    }

    public URI server() {
        return server;
    }

    /** An HTTP status with the decoded JSON body ({@code null} when the body is empty or not JSON). */
    public record Response(int status, @Nullable JsonNode body, String rawBody) {

        public boolean isSuccess() {
            return status >= 200 && status < 300;
        }

        /** Whether the object answered has the status condition {@code type} at {@code "True"}. */
        public boolean hasTrueCondition(String type) {
            if (!isSuccess() || body == null) {
                return false;
            }
            for (JsonNode condition : body.path("status").path("conditions")) {
                if (type.equals(condition.path("type").asString("")) && "True".equals(condition.path("status").asString(""))) {
                    return true;
                }
            }
            return false;
        }

        /** The body, or an exception naming the request's outcome when the status is not 2xx. */
        public JsonNode orThrow(String what) {
            if (!isSuccess() || body == null) {
                throw new KubernetesApiException(what + " failed with HTTP " + status + ": " + abbreviate(rawBody));
            }
            return body;
        }
    }

    public Response get(String path) {
        return send("GET", path, null, null);
    }

    public Response post(String path, JsonNode body) {
        return send("POST", path, body, "application/json");
    }

    public Response put(String path, JsonNode body) {
        return send("PUT", path, body, "application/json");
    }

    /** A JSON merge patch ({@code application/merge-patch+json}), as {@code kubectl patch --type=merge}. */
    public Response mergePatch(String path, JsonNode body) {
        return send("PATCH", path, body, "application/merge-patch+json");
    }

    /** Deletes with background propagation, like {@code kubectl delete}. */
    public Response delete(String path) {
        ObjectNode options = object().put("kind", "DeleteOptions").put("apiVersion", "v1")
                .put("propagationPolicy", "Background");
        return send("DELETE", path, options, "application/json");
    }

    private Response send(String method, String path, @Nullable JsonNode body, @Nullable String contentType) {
        HttpRequest.Builder request = HttpRequest.newBuilder(server.resolve(path)).timeout(REQUEST_TIMEOUT)
                .header("Accept", "application/json")
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofByteArray(JSON.writeValueAsBytes(body)));
        if (contentType != null) {
            request.header("Content-Type", contentType);
        }
        if (bearerToken != null) {
            request.header("Authorization", "Bearer " + bearerToken);
        }
        try {
            HttpResponse<String> response = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
            return new Response(response.statusCode(), parse(response.body()), response.body());
        } catch (IOException e) {
            throw new UncheckedIOException(method + " " + server.resolve(path) + " failed: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new KubernetesApiException(method + " " + path + " was interrupted", e);
        }
    }

    private static @Nullable JsonNode parse(String body) {
        if (body == null || body.isBlank()) {
            return null;
        }
        try {
            return JSON.readTree(body);
        } catch (JacksonException e) {
            return null;
        }
    }

    /** A fresh empty JSON object, for building request bodies. */
    public static ObjectNode object() {
        return JsonNodeFactory.instance.objectNode();
    }

    /** The harness's JSON mapper (plain Jackson 3 defaults). */
    public static JsonMapper json() {
        return JSON;
    }

    private static String abbreviate(String text) {
        return text.length() <= 2000 ? text : text.substring(0, 2000) + "...";
    }

    /** A harness API call that did not succeed. */
    public static final class KubernetesApiException extends RuntimeException {

        private static final long serialVersionUID = 1L;

        public KubernetesApiException(String message) {
            super(message);
        }

        public KubernetesApiException(String message, Throwable cause) {
            super(message, cause);
        }
    }
}
