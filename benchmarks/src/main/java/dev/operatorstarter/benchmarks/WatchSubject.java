package dev.operatorstarter.benchmarks;

import java.util.Locale;

/**
 * A client measured by the watch-throughput section: the informer {@link Subject}s, with fabric8 twice, once
 * on each of its watch transports.
 */
enum WatchSubject {
    /** Our informer with the default transform, over HTTP streaming (the only way it watches). */
    OURS(Subject.OURS, WatchTransport.HTTP_STREAMING),
    /** The official client's informer, over HTTP streaming (the only way it watches). */
    OFFICIAL(Subject.OFFICIAL, WatchTransport.HTTP_STREAMING),
    /** fabric8's informer against a server that refuses the WebSocket upgrade: its HTTP streaming fallback. */
    FABRIC8(Subject.FABRIC8, WatchTransport.HTTP_STREAMING),
    /** fabric8's informer against a server that accepts the upgrade, as a real API server does. */
    FABRIC8_WEBSOCKET(Subject.FABRIC8, WatchTransport.WEBSOCKET),
    /** controller-runtime's cache informer, over HTTP streaming (client-go's only way to watch). */
    CONTROLLER_RUNTIME(Subject.CONTROLLER_RUNTIME, WatchTransport.HTTP_STREAMING);

    private final Subject client;
    private final WatchTransport transport;

    WatchSubject(Subject client, WatchTransport transport) {
        this.client = client;
        this.transport = transport;
    }

    /** Whose informer runs. */
    Subject client() {
        return client;
    }

    /** The transport its events must arrive over; the run fails if they came another way. */
    WatchTransport transport() {
        return transport;
    }

    /** How the report names it: the client's label, with the transport where the client has two. */
    String label() {
        return switch (this) {
            case OURS, OFFICIAL -> client.label();
            case CONTROLLER_RUNTIME -> ControllerRuntime.label();
            case FABRIC8 -> client.label() + " (HTTP streaming)";
            case FABRIC8_WEBSOCKET -> client.label() + " (WebSocket)";
        };
    }

    /** {@code ours}, {@code fabric8-websocket}...: the constant's name in any case, with {@code -} for {@code _}. */
    static WatchSubject parse(String text) {
        return valueOf(text.toUpperCase(Locale.ROOT).replace('-', '_'));
    }
}
