package dev.operatorstarter.client.rest;

import dev.operatorstarter.client.config.ClientConfig;
import org.springframework.http.HttpMethod;

/**
 * The REST client: builds {@link Request}s against the configured API server (client-go's
 * {@code rest.Interface}). Thread-safe; every request gets the transport's credentials, token
 * bucket, retries, interceptors and metrics.
 */
public interface RestClient extends AutoCloseable {

    /** A REST client for {@code config}; close it to release its connections. */
    static RestClient create(ClientConfig config, ClientOptions options) {
        return new TransportRestClient(new HttpTransport(config, options));
    }

    /** Where this client sends requests. */
    ClientConfig config();

    /** How this client talks to the server, its time source included. */
    ClientOptions options();

    /** Releases the connection pool. Requests in flight fail. */
    @Override
    void close();

    /** A request with any method. */
    Request method(HttpMethod method);

    default Request get() {
        return method(HttpMethod.GET);
    }

    default Request post() {
        return method(HttpMethod.POST);
    }

    default Request put() {
        return method(HttpMethod.PUT);
    }

    default Request delete() {
        return method(HttpMethod.DELETE);
    }

    /** A PATCH whose body is in {@code type}'s format. */
    default Request patch(PatchType type) {
        return method(HttpMethod.PATCH).contentType(type.contentType());
    }
}
