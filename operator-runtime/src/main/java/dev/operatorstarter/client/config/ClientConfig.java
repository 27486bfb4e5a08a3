package dev.operatorstarter.client.config;

import java.net.URI;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Where the API server is and how to reach it: the result of reading a kubeconfig or the
 * in-cluster service-account files. Immutable.
 *
 * @param server the API server's base URL, for example {@code https://10.0.0.1:443}
 * @param tls how TLS is verified and which client certificate is presented
 * @param credentials how requests are authenticated
 * @param proxy an {@code http://} or {@code socks5://} proxy ({@code proxy-url}), or {@code null} for a direct
 *     connection; an {@code https://} proxy is refused, since the client cannot speak TLS to a proxy and
 *     would send the {@code Proxy-Authorization} and the CONNECT in cleartext
 * @param namespace the default namespace ({@code default} when the source names none)
 * @param source where this came from, for messages: a kubeconfig file and context, or "in-cluster"
 */
public record ClientConfig(URI server, TlsSettings tls, Credentials credentials, @Nullable URI proxy,
        String namespace, String source) {

    public ClientConfig {
        Objects.requireNonNull(server, "server");
        Objects.requireNonNull(tls, "tls");
        Objects.requireNonNull(credentials, "credentials");
        Objects.requireNonNull(namespace, "namespace");
        Objects.requireNonNull(source, "source");
        String scheme = server.getScheme();
        if (!"https".equals(scheme) && !"http".equals(scheme)) {
            throw new IllegalArgumentException("server URL " + new RedactedUri(server) + " (from " + source
                    + ") must start with https:// or http://");
        }
        if (server.getHost() == null) {
            throw new IllegalArgumentException("server URL " + new RedactedUri(server) + " (from " + source
                    + ") has no host");
        }
        if (proxy != null) {
            String problem = ProxyScheme.problem(proxy);
            if (problem != null) {
                throw new IllegalArgumentException("proxy " + new RedactedUri(proxy) + " (from " + source + ") " + problem);
            }
        }
    }

    /**
     * The configuration a process would use without being told, in controller-runtime's order: the
     * kubeconfig files in {@code KUBECONFIG}, else the in-cluster service account when running in a
     * pod, else {@code ~/.kube/config} (see {@link KubeconfigLoader#fromEnvironment}); without a
     * {@code proxy-url}, {@code HTTPS_PROXY}/{@code NO_PROXY} apply as in client-go.
     *
     * @throws ConfigException naming what was tried when none of them is usable
     */
    public static ClientConfig load() {
        return KubeconfigLoader.fromEnvironment(System.getenv(), null);
    }

    /** Everything but secrets: URLs as {@link RedactedUri} prints them, credentials redact themselves. */
    @Override
    public String toString() {
        String proxyText = proxy == null ? "none" : new RedactedUri(proxy).toString();
        return "ClientConfig[server=" + new RedactedUri(server) + ", tls=" + tls + ", credentials=" + credentials + ", proxy=" + proxyText
                + ", namespace=" + namespace + ", source=" + source + "]";
    }

    /** The same configuration with another proxy ({@code null} for a direct connection). */
    public ClientConfig withProxy(@Nullable URI proxy) {
        return new ClientConfig(server, tls, credentials, proxy, namespace, source);
    }

    /** The same configuration with another default namespace. */
    public ClientConfig withNamespace(String namespace) {
        return new ClientConfig(server, tls, credentials, proxy, namespace, source);
    }
}
