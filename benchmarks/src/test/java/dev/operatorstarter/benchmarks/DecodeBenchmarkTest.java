package dev.operatorstarter.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class DecodeBenchmarkTest {

    private final DecodeBenchmark benchmark = new DecodeBenchmark();

    @BeforeEach
    void setUp() {
        benchmark.setUp();
    }

    @AfterEach
    void tearDown() {
        benchmark.tearDown();
    }

    @Test
    void bothSubjectsDecodeEveryEventOfTheStreamTheInterceptorServes() {
        assertThat(benchmark.ours()).isEqualTo(DecodeBenchmark.EVENTS);
        assertThat(benchmark.plainJackson()).isEqualTo(DecodeBenchmark.EVENTS);
    }

    @Test
    void theClientDecodesTheSameStreamAgainOnEveryInvocation() {
        assertThat(benchmark.ours()).isEqualTo(DecodeBenchmark.EVENTS);
        assertThat(benchmark.ours()).isEqualTo(DecodeBenchmark.EVENTS);
    }
}
