package dev.operatorstarter.test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class SharedClusterTest {

    @Test
    void manyCallersAtOnceStartTheClusterOnceAndAllSeeTheSameFailure() throws Exception {
        AtomicInteger starts = new AtomicInteger();
        RuntimeException cause = new ClusterStartException("cannot read kubeconfig /nowhere");
        SharedCluster shared = new SharedCluster(() -> {
            starts.incrementAndGet();
            throw cause;
        });
        int callers = 16;
        CountDownLatch go = new CountDownLatch(1);
        ExecutorService executor = Executors.newFixedThreadPool(callers);
        List<Future<Throwable>> outcomes = new ArrayList<>();
        try {
            for (int i = 0; i < callers; i++) {
                outcomes.add(executor.submit(() -> {
                    go.await();
                    return catchThrowable(shared::cluster);
                }));
            }
            go.countDown();
            for (Future<Throwable> outcome : outcomes) {
                assertThat(outcome.get(30, TimeUnit.SECONDS))
                        .isInstanceOf(ClusterStartException.class)
                        .hasMessage("the test cluster for this run could not be started: cannot read kubeconfig /nowhere")
                        .cause().isSameAs(cause);
            }
        } finally {
            executor.shutdownNow();
        }

        assertThat(starts).hasValue(1);
    }

    @Test
    void everyPathToTheClusterFailsWithTheRememberedCause() {
        RuntimeException cause = new IllegalStateException("no Go toolchain");
        SharedCluster shared = new SharedCluster(() -> {
            throw cause;
        });

        assertThat(catchThrowable(shared::cluster)).hasCause(cause);
        assertThat(catchThrowable(shared::access)).hasCause(cause);
        assertThat(catchThrowable(() -> shared.installCrdsOnce("crds/widgets.yaml", getClass().getClassLoader())))
                .isInstanceOf(ClusterStartException.class).cause().isSameAs(cause);
    }

    @Test
    void creatingAHolderStartsNothing() {
        AtomicInteger starts = new AtomicInteger();

        new SharedCluster(() -> {
            starts.incrementAndGet();
            throw new IllegalStateException("not expected");
        });

        assertThat(starts).hasValue(0);
    }
}
