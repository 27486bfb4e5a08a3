package dev.operatorstarter.autoconfigure.webhook;

import io.netty.channel.Channel;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Caps the connections open at once: one accepted beyond the cap is closed at once, before its
 * TLS handshake, so idle or half-open connections cannot pile up until the heap runs out. A warning
 * is logged when the cap is first reached, and again only after the count has dropped below it.
 * Thread-safe: connections are accepted on several event loops.
 */
final class ConnectionLimit {

    private static final Logger log = LoggerFactory.getLogger(ConnectionLimit.class);

    private final int max;
    private final AtomicInteger open = new AtomicInteger();
    private final AtomicBoolean full = new AtomicBoolean();

    ConnectionLimit(int max) {
        if (max < 1) {
            throw new IllegalArgumentException("max must be at least 1, not " + max);
        }
        this.max = max;
    }

    /** Counts {@code channel} until it closes, or closes it when the cap is reached; whether it was admitted. */
    boolean admit(Channel channel) {
        int current;
        do { // never counts past the cap, not even for a moment
            current = open.get();
            if (current >= max) {
                if (full.compareAndSet(false, true)) {
                    log.warn("The webhook server has {} connections open (operator.webhook.max-connections): further "
                            + "connections are closed until some close", max);
                }
                channel.close();
                return false;
            }
        } while (!open.compareAndSet(current, current + 1));
        channel.closeFuture().addListener(closed -> {
            if (open.decrementAndGet() < max && full.compareAndSet(true, false)) {
                log.info("The webhook server accepts connections again");
            }
        });
        return true;
    }

    /** The connections counted now. */
    int open() {
        return open.get();
    }
}
