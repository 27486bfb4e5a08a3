package dev.operatorstarter.client.rest;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpResponseStatus;
import java.io.ByteArrayOutputStream;

/**
 * Keeps a copy of the body of an answer that refuses a WebSocket upgrade (any status but 101), up
 * to 64 KiB, passing every message on untouched: the server's {@code Status} in it names what was
 * refused. Sees one connection's handshake; does nothing once the upgrade succeeded.
 */
@ChannelHandler.Sharable
final class RefusalBody extends ChannelInboundHandlerAdapter {

    static final String NAME = "operator-starter.refusal-body";
    private static final int MAX_BYTES = 64 * 1024;

    private final ByteArrayOutputStream body = new ByteArrayOutputStream();
    private boolean refused;

    @Override
    public void channelRead(ChannelHandlerContext context, Object message) throws Exception {
        synchronized (this) {
            if (message instanceof HttpResponse response) {
                refused = !HttpResponseStatus.SWITCHING_PROTOCOLS.equals(response.status());
            }
            if (refused && message instanceof HttpContent content) {
                ByteBuf bytes = content.content();
                int take = Math.min(bytes.readableBytes(), MAX_BYTES - body.size());
                if (take > 0) {
                    byte[] copy = new byte[take];
                    bytes.getBytes(bytes.readerIndex(), copy);
                    body.writeBytes(copy);
                }
            }
        }
        super.channelRead(context, message);
    }

    synchronized byte[] bytes() {
        return body.toByteArray();
    }
}
