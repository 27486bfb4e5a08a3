package dev.operatorstarter.client.config;

import java.math.BigInteger;
import java.net.InetAddress;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.UnknownHostException;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * The proxy the environment names for a server, as Go's {@code http.ProxyFromEnvironment} (which
 * client-go uses when a kubeconfig has no {@code proxy-url}): {@code HTTPS_PROXY} for https
 * servers, {@code HTTP_PROXY} for http ones (upper or lower case), unless {@code NO_PROXY} matches
 * the host: {@code *}, a host name, a domain (with or without a leading dot, matching its
 * subdomains), an IP address or a CIDR range; ports in entries are ignored. Loopback hosts never
 * use a proxy. As in Go, the proxy may be a URL or {@code host[:port]} (then {@code http://});
 * {@code http://} and {@code socks5://} proxies are used, an {@code https://} one is refused (see
 * {@link ProxyScheme}). Messages print the proxy as {@link RedactedUri} does.
 */
final class EnvironmentProxy {

    private static final Pattern IPV4 = Pattern.compile("\\d{1,3}(\\.\\d{1,3}){3}");

    private EnvironmentProxy() {
    }

    static @Nullable URI forServer(URI server, Map<String, String> environment) {
        boolean https = "https".equals(server.getScheme());
        String proxy = first(environment, https ? "HTTPS_PROXY" : "HTTP_PROXY");
        if (proxy == null) {
            return null;
        }
        String host = server.getHost().toLowerCase(Locale.ROOT).replace("[", "").replace("]", "");
        if (host.equals("localhost") || isLoopback(host) || excluded(host, first(environment, "NO_PROXY"))) {
            return null;
        }
        String variable = https ? "HTTPS_PROXY" : "HTTP_PROXY";
        URI uri;
        try {
            uri = new URI(proxy.contains("://") ? proxy : "http://" + proxy);
        } catch (URISyntaxException e) {
            // Not chained, and getReason() only: the exception's message quotes the URL with its password.
            throw new ConfigException("the proxy " + RedactedUri.text(proxy) + " in " + variable + " is not a valid URL: "
                    + e.getReason());
        }
        String problem = ProxyScheme.problem(uri);
        if (problem != null) {
            throw new ConfigException("the proxy " + new RedactedUri(uri) + " in " + variable + " " + problem);
        }
        return uri;
    }

    private static @Nullable String first(Map<String, String> environment, String name) {
        String value = environment.get(name);
        if (value == null || value.isBlank()) {
            value = environment.get(name.toLowerCase(Locale.ROOT));
        }
        return value == null || value.isBlank() ? null : value.trim();
    }

    private static boolean excluded(String host, @Nullable String noProxy) {
        if (noProxy == null) {
            return false;
        }
        for (String raw : noProxy.split(",")) {
            String entry = raw.trim().toLowerCase(Locale.ROOT);
            if (entry.isEmpty()) {
                continue;
            }
            if (entry.equals("*")) {
                return true;
            }
            if (entry.contains("/")) {
                if (inCidr(host, entry)) {
                    return true;
                }
                continue;
            }
            entry = stripPort(entry);
            if (entry.startsWith(".")) {
                entry = entry.substring(1);
            }
            if (host.equals(entry) || host.endsWith("." + entry)) {
                return true;
            }
        }
        return false;
    }

    private static String stripPort(String entry) {
        if (entry.startsWith("[")) {
            int end = entry.indexOf(']');
            return end > 0 ? entry.substring(1, end) : entry;
        }
        int colon = entry.lastIndexOf(':');
        return colon > 0 && entry.indexOf(':') == colon ? entry.substring(0, colon) : entry;
    }

    private static boolean isLiteral(String host) {
        return IPV4.matcher(host).matches() || host.contains(":");
    }

    private static boolean isLoopback(String host) {
        try {
            return isLiteral(host) && InetAddress.getByName(host).isLoopbackAddress();
        } catch (UnknownHostException e) {
            return false;
        }
    }

    private static boolean inCidr(String host, String cidr) {
        if (!isLiteral(host)) {
            return false;
        }
        try {
            String[] parts = cidr.split("/");
            byte[] network = InetAddress.getByName(parts[0]).getAddress();
            byte[] address = InetAddress.getByName(host).getAddress();
            int bits = Integer.parseInt(parts[1]);
            if (network.length != address.length || bits < 0 || bits > network.length * 8) {
                return false;
            }
            int shift = network.length * 8 - bits;
            return new BigInteger(1, network).shiftRight(shift).equals(new BigInteger(1, address).shiftRight(shift));
        } catch (UnknownHostException | NumberFormatException | ArrayIndexOutOfBoundsException e) {
            return false;
        }
    }
}
