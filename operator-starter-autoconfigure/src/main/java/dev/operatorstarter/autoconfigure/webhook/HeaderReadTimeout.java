package dev.operatorstarter.autoconfigure.webhook;

import io.netty.channel.Channel;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelPromise;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.LastHttpContent;
import java.time.Duration;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;
import reactor.netty.NettyPipeline;

/**
 * Closes a connection whose request line and headers take longer than the header-read timeout to
 * arrive, as Go's {@code ReadHeaderTimeout}: a slow-loris client that sends a header byte now and
 * then never reaches the handler and holds the connection no longer than that. The clock starts
 * when the connection opens (so it covers the TLS handshake) and, on a kept-alive connection, at the
 * first byte after the previous response; it stops when the headers are decoded. Between requests
 * the idle timeout applies instead.
 *
 * <p>Two handlers share one state per connection: one in front of TLS sees bytes arrive, one
 * behind the HTTP codec sees the decoded request and the end of the response. Both run on the
 * connection's event loop, so the state needs no lock.
 */
final class HeaderReadTimeout {

    private static final String BYTES = "webhook.headerReadTimeout.bytes";
    private static final String MESSAGES = "webhook.headerReadTimeout.messages";

    private final long timeoutNanos;
    private final Channel channel;
    /** Running while headers are awaited; null between requests and while one is handled. */
    private @Nullable ScheduledFuture<?> timer;
    /** Whether a request is decoded and not yet answered: bytes then are its body, not new headers. */
    private boolean inRequest;

    private HeaderReadTimeout(Duration timeout, Channel channel) {
        this.timeoutNanos = timeout.toNanos();
        this.channel = channel;
    }

    /**
     * Installs the timeout on a connection being set up (from {@code doOnChannelInit}, after the
     * server's own handlers) and starts its clock.
     */
    static void install(Channel channel, Duration timeout) {
        HeaderReadTimeout state = new HeaderReadTimeout(timeout, channel);
        channel.pipeline().addFirst(BYTES, state.new Bytes());
        if (channel.pipeline().get(NettyPipeline.HttpCodec) != null) {
            channel.pipeline().addAfter(NettyPipeline.HttpCodec, MESSAGES, state.new Messages());
        } else {
            channel.pipeline().addLast(MESSAGES, state.new Messages());
        }
        state.start();
    }

    private void start() {
        if (timer == null && channel.isOpen()) {
            timer = channel.eventLoop().schedule((Runnable) channel::close, timeoutNanos, TimeUnit.NANOSECONDS);
        }
    }

    private void stop() {
        if (timer != null) {
            timer.cancel(false);
            timer = null;
        }
    }

    /** In front of TLS: a byte between requests starts the clock. */
    private final class Bytes extends ChannelInboundHandlerAdapter {

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object message) throws Exception {
            if (!inRequest) {
                start();
            }
            ctx.fireChannelRead(message);
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) throws Exception {
            stop();
            ctx.fireChannelInactive();
        }
    }

    /** Behind the HTTP codec: a decoded request stops the clock; the end of its response waits for the next. */
    private final class Messages extends ChannelDuplexHandler {

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object message) throws Exception {
            if (message instanceof HttpRequest) {
                stop();
                inRequest = true;
            }
            ctx.fireChannelRead(message);
        }

        @Override
        public void write(ChannelHandlerContext ctx, Object message, ChannelPromise promise) throws Exception {
            if (message instanceof LastHttpContent) {
                stop();
                inRequest = false;
            }
            ctx.write(message, promise);
        }
    }
}
