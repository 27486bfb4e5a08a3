package dev.operatorstarter.client.rest;

import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.websocketx.WebSocketClientHandshakeException;
import java.util.List;
import java.util.Optional;
import org.springframework.http.HttpHeaders;
import reactor.core.Disposable;
import reactor.core.publisher.Mono;
import reactor.netty.http.client.HttpClient;
import reactor.netty.http.client.WebsocketClientSpec;

/**
 * The WebSocket handshake: an HTTP/1.1 upgrade with the request's URL, the credentials and the
 * offered subprotocols. A refusal (any answer but 101) becomes the {@link ApiException} of the
 * server's {@code Status}, as for any other request: Netty's handshake error keeps the status and
 * headers only, so {@link RefusalBody} keeps the body of a refusal on its way in.
 */
final class WebSocketUpgrade {

    /** The largest message the client accepts: the servers' frames are far smaller (32 KiB in the kubelet). */
    static final int MAX_MESSAGE_BYTES = 16 * 1024 * 1024;

    private WebSocketUpgrade() {
    }

    static Mono<WebSocket> open(HttpClient http, HttpTransport.RequestSpec spec, List<String> subprotocols,
            Optional<String> authorization, ClientOptions options) {
        return Mono.create(sink -> {
            RefusalBody refusalBody = new RefusalBody();
            WebsocketClientSpec socket = WebsocketClientSpec.builder().protocols(String.join(",", subprotocols))
                    .maxFramePayloadLength(MAX_MESSAGE_BYTES).handlePing(false).compress(false).build();
            Disposable connection = http.doOnConnected(opened -> opened.addHandlerLast(RefusalBody.NAME, refusalBody))
                    .headers(headers -> {
                        headers.set(HttpHeaders.USER_AGENT, options.userAgent());
                        authorization.ifPresent(value -> headers.set(HttpHeaders.AUTHORIZATION, value));
                    })
                    .websocket(socket)
                    .uri(spec.uri())
                    .handle((inbound, outbound) -> {
                        NettyWebSocket opened = new NettyWebSocket(inbound, outbound, spec.describe(),
                                MAX_MESSAGE_BYTES);
                        sink.success(opened);
                        return opened.lifetime();
                    })
                    .subscribe(null, error -> sink.error(refusal(error, spec, subprotocols, refusalBody.bytes())));
            sink.onCancel(connection);
        });
    }

    /** The handshake's refusal as the server's Status, or {@code error} itself. */
    private static Throwable refusal(Throwable error, HttpTransport.RequestSpec spec, List<String> subprotocols,
            byte[] body) {
        if (!(error instanceof WebSocketClientHandshakeException handshake) || handshake.response() == null) {
            return error;
        }
        HttpResponse response = handshake.response();
        int code = response.status().code();
        if (code == 101) {
            return new KubernetesClientException(spec.describe() + " failed: the server chose no subprotocol of "
                    + String.join(", ", subprotocols) + " (" + handshake.getMessage() + ")", error);
        }
        HttpHeaders headers = new HttpHeaders();
        response.headers().forEach(header -> headers.add(header.getKey(), header.getValue()));
        return ApiException.fromStatus(StatusTranslator.status(code, body, headers), spec.describe());
    }
}
