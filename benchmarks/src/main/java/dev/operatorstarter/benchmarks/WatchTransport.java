package dev.operatorstarter.benchmarks;

/** How a watch's events travel from {@link WatchServer} to the client. */
enum WatchTransport {
    /** One HTTP response, chunked, one JSON event per line: what every client can use. */
    HTTP_STREAMING,
    /** An upgraded connection, one JSON event per WebSocket text message: fabric8's first choice. */
    WEBSOCKET
}
