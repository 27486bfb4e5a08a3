package dev.operatorstarter.client.rest;

import dev.operatorstarter.internal.Durations;
import dev.operatorstarter.internal.Json;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferLimitException;
import org.springframework.core.io.buffer.DataBufferUtils;
import org.springframework.http.HttpMethod;
import org.springframework.web.reactive.function.BodyExtractors;
import org.springframework.web.reactive.function.client.ClientResponse;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JavaType;

/**
 * One request, built fluently (client-go's {@code rest.Request}): method, API group and version,
 * namespace, resource, name, subresource, query parameters and body; then a terminal operation
 * that decodes the response, returns its bytes, streams it, or watches.
 *
 * <p>Paths are {@code /api/v1/...} for the core group and {@code /apis/<group>/<version>/...}
 * otherwise, under any path the server URL has (for example a proxy's {@code /k8s/clusters/c1}).
 *
 * <p>The blocking terminals ({@link #execute}, {@link #bytes}) must not be called on a Reactor
 * I/O thread; the reactive ones ({@link #mono}, {@link #watch}, {@link #stream}) do nothing until
 * subscribed. A request object is not thread-safe; build one per call.
 *
 * <p>Decoding never turns a body into a {@code String}: a response is parsed from its bytes, and a
 * watch is decoded event by event as the chunks arrive, with backpressure: when the subscriber stops
 * requesting, reading from the socket stops.
 */
public final class Request {


    private final HttpTransport transport;
    private final HttpMethod method;
    private @Nullable String group;
    private @Nullable String version;
    private @Nullable String namespace;
    private @Nullable String resource;
    private @Nullable String name;
    private final List<String> subresources = new ArrayList<>();
    private @Nullable String absolutePath;
    private final List<Map.Entry<String, String>> query = new ArrayList<>();
    private @Nullable Object body;
    private String contentType = "application/json";
    private String accept = "application/json";
    private @Nullable Duration deadline;

    Request(HttpTransport transport, HttpMethod method) {
        this.transport = transport;
        this.method = method;
    }

    /** The API group ("" for the core group) and version, for example {@code ("apps", "v1")}. */
    public Request groupVersion(String group, String version) {
        this.group = Objects.requireNonNull(group, "group");
        this.version = Objects.requireNonNull(version, "version");
        return this;
    }

    /** The namespace; {@code null} or empty for a cluster-scoped resource or all namespaces. */
    public Request namespace(@Nullable String namespace) {
        this.namespace = namespace == null || namespace.isEmpty() ? null : segment(namespace, "namespace");
        return this;
    }

    /** The resource's plural name, for example {@code deployments}. */
    public Request resource(String resource) {
        this.resource = segment(resource, "resource");
        return this;
    }

    /** The object's name. */
    public Request name(String name) {
        this.name = segment(name, "name");
        return this;
    }

    /** A subresource, for example {@code status} or {@code scale}. */
    public Request subresource(String subresource) {
        this.subresources.add(segment(subresource, "subresource"));
        return this;
    }

    /** A path of its own instead of group/namespace/resource, for example {@code /version} or {@code /apis}. */
    public Request path(String path) {
        if (!path.startsWith("/")) {
            throw new IllegalArgumentException("path must start with /: " + path);
        }
        this.absolutePath = path;
        return this;
    }

    /** Adds a query parameter (may repeat). */
    public Request param(String name, String value) {
        query.add(Map.entry(name, value));
        return this;
    }

    /** Adds the parameters of a list or watch. */
    public Request options(ListOptions options) {
        options.toQuery().forEach(this::param);
        return this;
    }

    public Request labelSelector(String selector) {
        return param("labelSelector", selector);
    }

    public Request fieldSelector(String selector) {
        return param("fieldSelector", selector);
    }

    /**
     * The body: an object (written as JSON with the client's mapper), a {@code String} or a
     * {@code byte[]} (sent as is).
     */
    public Request body(Object body) {
        this.body = Objects.requireNonNull(body, "body");
        return this;
    }

    /** The body's content type; default {@code application/json}. */
    public Request contentType(String contentType) {
        this.contentType = contentType;
        return this;
    }

    /** The {@code Accept} header; default {@code application/json}. */
    public Request accept(String accept) {
        this.accept = accept;
        return this;
    }

    /**
     * Makes this request one attempt that must finish within {@code deadline}, counted from when
     * it is sent: it is not retried (not even on 429 or a reset connection) and does not wait for
     * the client's rate limiter. For callers whose own guarantee has a deadline, such as a leader
     * renewing its lease: a request that outlives the guarantee it serves is worse than none.
     * Streaming requests ignore it.
     */
    public Request deadline(Duration deadline) {
        this.deadline = Durations.requirePositive(deadline, "deadline");
        return this;
    }

    /** The URL this request goes to. */
    public URI uri() {
        StringBuilder path = new StringBuilder();
        String base = transport.config().server().getRawPath();
        if (base != null && base.endsWith("/")) {
            base = base.substring(0, base.length() - 1);
        }
        path.append(base == null ? "" : base);
        if (absolutePath != null) {
            path.append(absolutePath);
        } else {
            if (version == null) {
                throw new IllegalStateException("a request needs groupVersion(...) or path(...)");
            }
            path.append(group == null || group.isEmpty() ? "/api/" + version : "/apis/" + group + "/" + version);
            if (namespace != null) {
                path.append("/namespaces/").append(namespace);
            }
            if (resource != null) {
                path.append('/').append(resource);
            }
            if (name != null) {
                path.append('/').append(name);
            }
            for (String subresource : subresources) {
                path.append('/').append(subresource);
            }
        }
        StringBuilder url = new StringBuilder();
        URI server = transport.config().server();
        // Host and port only: user info in a server URL is never sent on, nor shown where the URL is.
        url.append(server.getScheme()).append("://").append(server.getHost())
                .append(server.getPort() < 0 ? "" : ":" + server.getPort()).append(path);
        char separator = '?';
        for (Map.Entry<String, String> parameter : query) {
            url.append(separator).append(encode(parameter.getKey())).append('=').append(encode(parameter.getValue()));
            separator = '&';
        }
        return URI.create(url.toString());
    }

    /** Sends the request and decodes a successful response into {@code type}. Blocks. */
    public <T> @Nullable T execute(Class<T> type) {
        return this.<T>mono(Json.MAPPER.constructType(type)).block();
    }

    /** Sends the request and decodes a successful response into {@code type}. Blocks. */
    public <T> @Nullable T execute(JavaType type) {
        return this.<T>mono(type).block();
    }

    /** The response body's bytes. Blocks. */
    public byte[] bytes() {
        HttpTransport.RequestSpec spec = spec();
        BodyLimit limit = bodyLimit();
        return Objects.requireNonNull(transport.execute(spec, response -> readBytes(response, limit, spec))
                .defaultIfEmpty(new byte[0]).block());
    }

    /** Sends the request when subscribed and decodes the response into {@code type}. */
    public <T> Mono<T> mono(JavaType type) {
        HttpTransport.RequestSpec spec = spec();
        BodyLimit limit = bodyLimit();
        return transport.execute(spec, response -> decode(response, type, limit, spec));
    }

    /** The response body as it arrives. Release each buffer ({@link DataBufferUtils#release}). */
    public Flux<DataBuffer> stream() {
        return transport.stream(spec(), response -> response.body(BodyExtractors.toDataBuffers()));
    }

    /**
     * Watches: adds {@code watch=true} and decodes each event into a {@link WatchEvent} of
     * {@code type}, as it arrives. The flux completes when the server ends the watch, fails with a
     * {@link KubernetesClientException} on a malformed event or a broken connection, and closes
     * the connection when cancelled.
     */
    public <T> Flux<WatchEvent<T>> watch(JavaType type) {
        param("watch", "true");
        HttpTransport.RequestSpec spec = spec();
        return transport.stream(spec, response -> WatchDecoding.decode(response.body(BodyExtractors.toDataBuffers()),
                type, spec.describe(), transport.options().maxWatchEventBytes()));
    }

    /**
     * Opens a WebSocket to this request's URL (a GET upgraded), offering {@code subprotocols} in
     * order of preference; see {@link WebSocket#subprotocol()} for the server's choice. The handshake
     * waits for a rate-limiter token, is not retried, and must finish within the request timeout (or
     * this request's {@link #deadline}); a refusal is the {@link ApiException} of the server's Status.
     * Nothing happens until subscribed; cancelling before the handshake ends abandons it.
     */
    public Mono<WebSocket> webSocket(String... subprotocols) {
        if (method != HttpMethod.GET) {
            throw new IllegalStateException("a WebSocket is opened with GET, not " + method.name());
        }
        return transport.webSocket(spec(), List.of(subprotocols));
    }

    /**
     * The most this request's response body may take: a collection's (a list, or a DELETE of a
     * collection, which answers with one) may be as large as the cluster, one object's not.
     */
    private BodyLimit bodyLimit() {
        ClientOptions options = transport.options();
        boolean collection = absolutePath == null && resource != null && name == null && subresources.isEmpty()
                && (method == HttpMethod.GET || method == HttpMethod.DELETE);
        return collection ? new BodyLimit(options.maxListResponseBytes(), "maxListResponseBytes")
                : new BodyLimit(options.maxResponseBytes(), "maxResponseBytes");
    }

    /** The most a response body may take, and the option that says so. */
    private record BodyLimit(int bytes, String option) {

        /** {@code error}, or for a body over the limit, an error that names the request, the limit and the option. */
        Throwable explain(Throwable error, HttpTransport.RequestSpec spec) {
            if (!(error instanceof DataBufferLimitException)) {
                return error;
            }
            return new ResponseTooLargeException("response to " + spec.describe() + " exceeded the "
                    + ByteSizes.describe(bytes) + " limit (ClientOptions." + option + ")", error);
        }
    }


    private HttpTransport.RequestSpec spec() {
        Object payload = null;
        if (body instanceof byte[] bytes) {
            payload = bytes;
        } else if (body instanceof String text) {
            payload = text.getBytes(StandardCharsets.UTF_8);
        } else if (body != null) {
            payload = Json.MAPPER.writeValueAsBytes(body);
        }
        return new HttpTransport.RequestSpec(method, uri(), accept, payload, contentType, deadline,
                transport.observed() ? route() : null);
    }

    /** What this request does in Kubernetes terms, for its observation. */
    private HttpTransport.Route route() {
        String verb = method.name().toLowerCase(Locale.ROOT);
        if (absolutePath != null) {
            return new HttpTransport.Route(absolutePath, "", verb);
        }
        StringBuilder template = new StringBuilder(group == null || group.isEmpty() ? "/api/" + version
                : "/apis/" + group + "/" + version);
        if (namespace != null) {
            template.append("/namespaces/{namespace}");
        }
        StringBuilder what = new StringBuilder();
        if (resource != null) {
            template.append('/').append(resource);
            what.append(resource);
            if (group != null && !group.isEmpty()) {
                what.append('.').append(group);
            }
        }
        if (name != null) {
            template.append("/{name}");
        }
        for (String subresource : subresources) {
            template.append('/').append(subresource);
            what.append('/').append(subresource);
        }
        boolean watch = query.stream().anyMatch(p -> p.getKey().equals("watch") && p.getValue().equals("true"));
        String kubernetesVerb = switch (verb) {
            case "get" -> watch ? "watch" : name == null ? "list" : "get";
            case "post" -> "create";
            case "put" -> "update";
            case "delete" -> name == null ? "deletecollection" : "delete";
            default -> verb;
        };
        return new HttpTransport.Route(template.toString(), what.toString(), kubernetesVerb);
    }

    private static Mono<byte[]> readBytes(ClientResponse response, BodyLimit limit, HttpTransport.RequestSpec spec) {
        return join(response, limit, spec).map(buffer -> {
            try {
                byte[] bytes = new byte[buffer.readableByteCount()];
                buffer.read(bytes);
                return bytes;
            } finally {
                DataBufferUtils.release(buffer);
            }
        });
    }

    private static <T> Mono<T> decode(ClientResponse response, JavaType type, BodyLimit limit,
            HttpTransport.RequestSpec spec) {
        return join(response, limit, spec).<T>handle((buffer, sink) -> {
            try (InputStream in = buffer.asInputStream(true)) {
                T value = Json.MAPPER.<T>readValue(in, type);
                if (value != null) {
                    sink.next(value);
                }
            } catch (JacksonException e) {
                sink.error(new KubernetesClientException(spec.describe() + " returned a body that is not a valid "
                        + type.getRawClass().getSimpleName() + " in JSON: " + e.getOriginalMessage(), e));
            } catch (IOException e) {
                sink.error(new KubernetesClientException(spec.describe() + " failed reading the body: " + e.getMessage(), e));
            }
        });
    }

    /**
     * The whole body in one buffer, or an error naming the request and the limit as soon as the
     * bytes pass it (the buffers read so far are released, the connection closed).
     */
    private static Mono<DataBuffer> join(ClientResponse response, BodyLimit limit, HttpTransport.RequestSpec spec) {
        return DataBufferUtils.join(response.body(BodyExtractors.toDataBuffers()), limit.bytes())
                .onErrorMap(error -> limit.explain(error, spec));
    }


    private static String segment(String value, String what) {
        if (value == null || value.isEmpty() || value.contains("/") || value.equals(".") || value.equals("..")) {
            throw new IllegalArgumentException(what + " must be a non-empty path segment without '/', was \"" + value + "\"");
        }
        return URLEncoder.encode(value, StandardCharsets.UTF_8).replace("+", "%20");
    }

    private static String encode(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8).replace("+", "%20");
    }

}
