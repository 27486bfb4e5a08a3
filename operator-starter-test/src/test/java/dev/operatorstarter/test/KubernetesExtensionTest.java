package dev.operatorstarter.test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import java.nio.file.Path;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Event;
import org.junit.platform.testkit.engine.EventType;

/** The extension's behaviour when the cluster cannot be had, run in an engine of its own. */
class KubernetesExtensionTest {

    private static final String RUNNING_FIXTURES = "operator.test.fixtures";

    private static final AtomicInteger FIXTURE_STARTS = new AtomicInteger();

    /**
     * The fixtures' cluster holder, one for both as the JVM has one for every class; not the JVM's
     * own, whose memoised failure would outlive this test.
     */
    private static final SharedCluster FIXTURE_CLUSTER = new SharedCluster(() -> {
        FIXTURE_STARTS.incrementAndGet();
        return KubernetesClusters.start();
    });

    @Test
    void aClusterThatCannotStartFailsEveryClassWithTheSameCauseAndIsTriedOnce(@TempDir Path temp) {
        Path missing = temp.resolve("missing-kubeconfig");
        Properties saved = (Properties) System.getProperties().clone();
        System.setProperty(ClusterBackend.PROPERTY, "existing");
        System.setProperty(ExistingCluster.KUBECONFIG_PROPERTY, missing.toString());
        System.setProperty(RUNNING_FIXTURES, "true");
        List<Event> failures;
        try {
            failures = EngineTestKit.engine("junit-jupiter")
                    .selectors(selectClass(FirstFixture.class), selectClass(SecondFixture.class))
                    .execute().containerEvents().failed().list();
        } finally {
            System.setProperties(saved);
        }

        assertThat(failures).hasSize(2);
        List<Throwable> causes = failures.stream().map(KubernetesExtensionTest::throwable).toList();
        assertThat(causes).allSatisfy(cause -> assertThat(cause)
                .isInstanceOf(ClusterStartException.class)
                .hasMessageStartingWith("the test cluster for this run could not be started")
                .hasMessageContaining("cannot read kubeconfig " + missing));
        assertThat(causes.get(0).getCause()).as("one attempt, one memoised failure")
                .isNotNull().isSameAs(causes.get(1).getCause());
        assertThat(FIXTURE_STARTS).hasValue(1);
    }

    private static Throwable throwable(Event event) {
        assertThat(event.getType()).isEqualTo(EventType.FINISHED);
        return event.getPayload(org.junit.platform.engine.TestExecutionResult.class).orElseThrow()
                .getThrowable().orElseThrow();
    }

    // What @KubernetesTest registers, on the fixtures' holder instead of the JVM's.
    @EnabledIfSystemProperty(named = RUNNING_FIXTURES, matches = "true")
    static class FirstFixture {
        @RegisterExtension
        static final KubernetesExtension KUBERNETES = new KubernetesExtension(FIXTURE_CLUSTER);

        @Test
        void needsTheCluster(ClusterConnection connection) {
        }
    }

    @EnabledIfSystemProperty(named = RUNNING_FIXTURES, matches = "true")
    static class SecondFixture {
        @RegisterExtension
        static final KubernetesExtension KUBERNETES = new KubernetesExtension(FIXTURE_CLUSTER);

        @Test
        void needsTheCluster(ClusterConnection connection) {
        }
    }
}
