package dev.operatorstarter.test.local;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.net.ssl.SSLContext;

/**
 * etcd as the local API server runs it: its command line, and the compaction of its history
 * through its v3 JSON gateway.
 */
final class Etcd {

    private Etcd() {
    }

    /**
     * etcd's flags: it speaks TLS and demands a client certificate from this run's CA, so the
     * readiness probe cannot mistake another process on the port for ours, and nothing else on the
     * machine can read or write the cluster's data.
     */
    static List<String> arguments(RunLayout layout, String url, int peerPort) {
        return List.of(
                "--name=default",
                "--data-dir=" + layout.etcdData,
                "--listen-client-urls=" + url,
                "--advertise-client-urls=" + url,
                "--cert-file=" + layout.servingCert,
                "--key-file=" + layout.servingKey,
                "--client-cert-auth=true",
                "--trusted-ca-file=" + layout.caCert,
                "--listen-peer-urls=http://127.0.0.1:" + peerPort,
                "--initial-advertise-peer-urls=http://127.0.0.1:" + peerPort,
                "--initial-cluster=default=http://127.0.0.1:" + peerPort,
                "--unsafe-no-fsync=true", // test data: durability is not worth the latency
                "--log-level=warn");
    }

    /**
     * Compacts the history of the etcd at {@code etcd} up to its current revision, as the client
     * of {@code ssl}.
     *
     * @return the revision compacted to
     */
    static long compact(URI etcd, SSLContext ssl) {
        HttpClient tls = ProcessLauncher.endpointClient(ssl);
        // Any range answers with the store's current revision in its header.
        String range = post(tls, etcd, "/v3/kv/range", "{\"key\":\"AA==\"}");
        Matcher revision = Pattern.compile("\"revision\"\\s*:\\s*\"?(\\d+)").matcher(range);
        if (!revision.find()) {
            throw new IllegalStateException("etcd's range answer has no revision: " + range);
        }
        long current = Long.parseLong(revision.group(1));
        post(tls, etcd, "/v3/kv/compaction", "{\"revision\":\"" + current + "\",\"physical\":true}");
        return current;
    }

    private static String post(HttpClient http, URI etcd, String path, String body) {
        URI uri = etcd.resolve(path);
        try {
            HttpResponse<String> response = http.send(HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(30))
                    .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body)).build(),
                    HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() != 200) {
                throw new IllegalStateException("etcd refused POST " + uri + ": " + response.statusCode() + " "
                        + response.body());
            }
            return response.body();
        } catch (IOException e) {
            throw new IllegalStateException("POST " + uri + " failed: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted during POST " + uri, e);
        }
    }
}
