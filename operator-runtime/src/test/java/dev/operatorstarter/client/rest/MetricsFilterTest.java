package dev.operatorstarter.client.rest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.operatorstarter.time.TimeSource;
import io.fabric8.kubernetes.api.model.StatusBuilder;
import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;

/** What the request metrics record of a WebSocket's upgrade, once per upgrade. */
class MetricsFilterTest {

    private static final URI SERVER = URI.create("https://10.0.0.1:6443");

    private final List<String> recorded = new CopyOnWriteArrayList<>();
    private final RequestMetrics metrics = (method, host, code, latency) -> recorded.add(method + " " + host + " " + code);

    private <T> Mono<T> upgrade(Mono<T> upgrade) {
        return MetricsFilter.webSocket(upgrade, metrics, SERVER, TimeSource.system());
    }

    @Test
    void anOpenSocketCountsAs101() {
        assertThat(upgrade(Mono.just("socket")).block()).isEqualTo("socket");

        assertThat(recorded).containsExactly("GET 10.0.0.1:6443 101");
    }

    @Test
    void aRefusalCountsWithItsStatusCode() {
        ApiException forbidden = ApiException.fromStatus(new StatusBuilder().withCode(403).withReason("Forbidden")
                .withMessage("pods \"web\" is forbidden").build(), "exec in pod ns/web");

        assertThatThrownBy(() -> upgrade(Mono.error(forbidden)).block()).isSameAs(forbidden);
        assertThat(recorded).containsExactly("GET 10.0.0.1:6443 403");
    }

    @Test
    void aConnectionFailureOrAnAbandonedUpgradeCountsAsError() {
        assertThatThrownBy(() -> upgrade(Mono.error(new IOException("connection refused"))).block())
                .hasCauseInstanceOf(IOException.class);
        assertThatThrownBy(() -> upgrade(Mono.never()).timeout(Duration.ofMillis(50)).block())
                .hasCauseInstanceOf(TimeoutException.class);

        assertThat(recorded).containsExactly("GET 10.0.0.1:6443 <error>", "GET 10.0.0.1:6443 <error>");
    }

    @Test
    void withoutMetricsTheUpgradeIsLeftAlone() {
        Mono<String> upgrade = Mono.just("socket");

        assertThat(MetricsFilter.webSocket(upgrade, RequestMetrics.NONE, SERVER, TimeSource.system())).isSameAs(upgrade);
    }
}
