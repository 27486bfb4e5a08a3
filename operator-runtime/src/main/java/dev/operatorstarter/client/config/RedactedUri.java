package dev.operatorstarter.client.config;

import java.net.URI;
import java.util.Locale;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * A server or proxy URL as it may be printed in a message, a log or a {@code toString}: the user
 * info (a proxy's {@code user:password}) is replaced by {@code ***}, so is the value of every
 * query parameter whose name suggests a credential ({@code token}, {@code access_token},
 * {@code password}, {@code secret}, {@code key}, {@code sig}, {@code auth}, ...), and a fragment
 * is dropped. Scheme, host, port and path stay, so the message still says where.
 *
 * <p>Every place that prints a server, proxy or request URL goes through this record:
 * {@code "GET " + new RedactedUri(uri)}. Text from a configuration, which may not even be a
 * valid URL (a bad {@code proxy-url}), goes through {@link #text(String)}.
 *
 * @param uri the URL to print; it is never printed as it is
 */
public record RedactedUri(URI uri) {

    private static final String HIDDEN = "***";
    private static final Pattern SECRET_PARAMETER = Pattern.compile(
            ".*(token|passw|secret|key|sig|auth|credential|session|cookie).*");

    public RedactedUri {
        Objects.requireNonNull(uri, "uri");
    }

    /** The URL with its user info, credential-like query values and fragment hidden. */
    @Override
    public String toString() {
        String authority = uri.getRawAuthority();
        String path = uri.getRawPath();
        if (uri.isOpaque() || uri.getHost() == null || authority == null || (path != null && path.contains("@"))) {
            return text(uri.toString()); // not plainly host[:port]/path: perhaps a password with '/', print it carefully
        }
        int at = authority.lastIndexOf('@');
        String query = uri.getRawQuery();
        return uri.getScheme() + "://" + (at < 0 ? authority : HIDDEN + authority.substring(at))
                + (path == null ? "" : path)
                + (query == null ? "" : "?" + hideSecretParameters(query));
    }

    /**
     * {@code url} as {@link RedactedUri} prints it, for text that may not be a valid URL (or is
     * one only by accident: {@code http://me:pa/ss@proxy} parses with the host {@code me}). A
     * password may hold any character, so everything between the scheme and the last {@code @} is
     * hidden. Text without a scheme is treated as {@code [user info@]host[:port]}, as proxy
     * variables are written.
     */
    public static String text(String url) {
        int schemeEnd = url.indexOf("://");
        int authorityStart = schemeEnd < 0 ? 0 : schemeEnd + 3;
        int at = url.lastIndexOf('@');
        String shown = at < authorityStart ? url : url.substring(0, authorityStart) + HIDDEN + url.substring(at);
        String withoutFragment = cut(shown, '#');
        int queryStart = withoutFragment.indexOf('?');
        return queryStart < 0 ? withoutFragment : withoutFragment.substring(0, queryStart) + "?"
                + hideSecretParameters(withoutFragment.substring(queryStart + 1));
    }

    private static String hideSecretParameters(String query) {
        StringBuilder out = new StringBuilder();
        for (String parameter : query.split("&", -1)) {
            if (out.length() > 0) {
                out.append('&');
            }
            int equals = parameter.indexOf('=');
            String name = equals < 0 ? parameter : parameter.substring(0, equals);
            if (equals >= 0 && SECRET_PARAMETER.matcher(name.toLowerCase(Locale.ROOT)).matches()) {
                out.append(name).append('=').append(HIDDEN);
            } else {
                out.append(parameter);
            }
        }
        return out.toString();
    }

    private static String cut(String text, char at) {
        int index = text.indexOf(at);
        return index < 0 ? text : text.substring(0, index);
    }
}
