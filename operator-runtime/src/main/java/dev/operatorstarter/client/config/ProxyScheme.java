package dev.operatorstarter.client.config;

import java.net.URI;
import java.util.Locale;
import org.jspecify.annotations.Nullable;

/**
 * Which proxy URLs the client can use: {@code http://} (CONNECT, with {@code Proxy-Authorization}
 * from the user info) and {@code socks5://}. An {@code https://} proxy is refused: Reactor Netty
 * speaks only cleartext to a proxy, so the CONNECT request and its {@code Proxy-Authorization}
 * would cross the network unencrypted, which is exactly what an https proxy URL asks to avoid.
 */
final class ProxyScheme {

    private ProxyScheme() {
    }

    /** Why {@code proxy} cannot be used, as the end of a sentence, or {@code null} when it can. */
    static @Nullable String problem(URI proxy) {
        String scheme = proxy.getScheme() == null ? "" : proxy.getScheme().toLowerCase(Locale.ROOT);
        if (scheme.equals("https")) {
            return "is an https:// proxy, which this client cannot use: it cannot speak TLS to a proxy, and would "
                    + "send the CONNECT request and the proxy credentials in cleartext; use an http:// or socks5:// "
                    + "proxy";
        }
        if (!scheme.equals("http") && !scheme.equals("socks5")) {
            return "must be an http:// or socks5:// URL";
        }
        if (proxy.getHost() == null) {
            return "has no host";
        }
        return null;
    }
}
