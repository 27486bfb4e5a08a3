package dev.operatorstarter.test;

import dev.operatorstarter.test.internal.OwnerOnly;
import dev.operatorstarter.test.internal.Tls;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Objects;
import javax.net.ssl.SSLContext;
import org.jspecify.annotations.Nullable;

/**
 * How to reach a test cluster's API server as a cluster administrator.
 *
 * <p>{@code kubeconfig} is always a file on disk that any Kubernetes client (ours, kubectl,
 * client-go) can use. The other fields carry the same facts for code that wants them directly:
 * the local and K3s backends authenticate with a client certificate; an existing cluster may use a
 * bearer token instead.
 *
 * @param server the API server's base URL, for example {@code https://127.0.0.1:40123}
 * @param certificateAuthorityPem the PEM certificate(s) that the server's certificate chains to
 * @param clientCertificatePem the admin client certificate (PEM), or {@code null} with a token
 * @param clientKeyPem the admin client key (PEM), or {@code null} with a token
 * @param bearerToken a bearer token, or {@code null} with a client certificate
 * @param kubeconfig a kubeconfig file whose current context is this connection
 */
public record ClusterConnection(URI server, String certificateAuthorityPem, @Nullable String clientCertificatePem,
        @Nullable String clientKeyPem, @Nullable String bearerToken, Path kubeconfig) {

    public ClusterConnection {
        Objects.requireNonNull(server, "server");
        Objects.requireNonNull(certificateAuthorityPem, "certificateAuthorityPem");
        Objects.requireNonNull(kubeconfig, "kubeconfig");
        if ((clientCertificatePem == null) != (clientKeyPem == null)) {
            throw new IllegalArgumentException("clientCertificatePem and clientKeyPem must be given together");
        }
        if (clientCertificatePem == null && bearerToken == null) {
            throw new IllegalArgumentException("a client certificate or a bearer token is required");
        }
    }

    /**
     * An SSL context that verifies the server against {@link #certificateAuthorityPem()} and
     * presents the client certificate when there is one.
     */
    public SSLContext sslContext() {
        return Tls.sslContext(certificateAuthorityPem, clientCertificatePem, clientKeyPem);
    }

    /**
     * Copies {@link #kubeconfig()} to {@code target} (creating its folders), for {@code kubectl} at a
     * path that stays the same: readable by its owner only from the moment it exists, where the file
     * system has POSIX permissions, as it holds the administrator's credentials.
     *
     * @return {@code target} as an absolute path
     */
    public Path copyKubeconfigTo(Path target) throws IOException {
        Path absolute = target.toAbsolutePath();
        Path parent = absolute.getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        OwnerOnly.write(absolute, Files.readString(kubeconfig));
        return absolute;
    }

    /** Never prints the key or the token. */
    @Override
    public String toString() {
        return "ClusterConnection[server=" + server + ", kubeconfig=" + kubeconfig
                + ", auth=" + (clientCertificatePem != null ? "client certificate" : "bearer token") + "]";
    }
}
