package dev.operatorstarter.cache;

import static org.assertj.core.api.Assertions.assertThat;

import dev.operatorstarter.client.rest.KubernetesClientException;
import java.net.ConnectException;
import java.net.SocketException;
import java.net.URI;
import java.security.cert.CertificateException;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLHandshakeException;
import org.junit.jupiter.api.Test;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.web.reactive.function.client.WebClientRequestException;

class FailuresTest {

    /** As the transport reports a failed request: its own exception around WebClient's, around the cause. */
    private static KubernetesClientException failedRequest(Throwable cause) {
        return new KubernetesClientException("GET /api/v1/configmaps failed in the TLS handshake",
                new WebClientRequestException(cause, HttpMethod.GET, URI.create("https://127.0.0.1:6443/api/v1/configmaps"),
                        new HttpHeaders()));
    }

    @Test
    void aHandshakeCutByAConnectionResetIsAnUnreachableServer() {
        SSLException reset = new SSLException("failure when writing TLS control frames",
                new SocketException("Connection reset by peer"));

        assertThat(Failures.unreachable(failedRequest(reset))).isTrue();
    }

    @Test
    void aCertificateTheClientRejectsIsNotAnUnreachableServer() {
        SSLHandshakeException untrusted = new SSLHandshakeException("PKIX path building failed");
        untrusted.initCause(new CertificateException("unable to find valid certification path"));

        assertThat(Failures.unreachable(failedRequest(untrusted))).isFalse();
    }

    @Test
    void aRefusedConnectionIsAnUnreachableServer() {
        assertThat(Failures.unreachable(failedRequest(new ConnectException("Connection refused")))).isTrue();
    }
}
