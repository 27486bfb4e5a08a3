package dev.operatorstarter.client.config;

import java.security.cert.X509Certificate;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * How the client checks the server and proves itself over TLS.
 *
 * @param certificateAuthorities the CAs to trust; empty means the JVM's default trust store
 * @param insecureSkipVerify skip verifying the server's certificate (only when the kubeconfig says
 *     so; default {@code false})
 * @param serverName the name to send as SNI and to verify the server's certificate against, instead
 *     of the host of the server URL ({@code tls-server-name}); {@code null} for the URL's host
 * @param clientCertificate the client certificate to present, or {@code null}
 */
public record TlsSettings(List<X509Certificate> certificateAuthorities, boolean insecureSkipVerify,
        @Nullable String serverName, @Nullable ClientCertificate clientCertificate) {

    public TlsSettings {
        certificateAuthorities = List.copyOf(certificateAuthorities);
    }

    /** Verify with the JVM's trust store, no client certificate. */
    public static TlsSettings defaults() {
        return new TlsSettings(List.of(), false, null, null);
    }

    /**
     * Each certificate authority by subject and expiry (never the whole certificate), and the
     * client certificate as {@link ClientCertificate#toString()} gives it (no key).
     */
    @Override
    public String toString() {
        return "TlsSettings[certificateAuthorities=" + certificateAuthorities.stream().map(Certificates::summary).toList()
                + ", insecureSkipVerify=" + insecureSkipVerify + ", serverName=" + serverName + ", clientCertificate="
                + clientCertificate + "]";
    }

    /** The same settings with another client certificate (used when an exec plugin supplies one). */
    public TlsSettings withClientCertificate(@Nullable ClientCertificate certificate) {
        return new TlsSettings(certificateAuthorities, insecureSkipVerify, serverName, certificate);
    }
}
