package dev.operatorstarter.client.rest;

import dev.operatorstarter.client.config.ClientConfig;
import org.springframework.http.HttpMethod;

/** {@link RestClient} over an {@link HttpTransport}. */
final class TransportRestClient implements RestClient {

    private final HttpTransport transport;

    TransportRestClient(HttpTransport transport) {
        this.transport = transport;
    }

    @Override
    public Request method(HttpMethod method) {
        return new Request(transport, method);
    }

    @Override
    public ClientConfig config() {
        return transport.config();
    }

    @Override
    public ClientOptions options() {
        return transport.options();
    }

    @Override
    public void close() {
        transport.close();
    }
}
