package dev.operatorstarter.autoconfigure.local;

import static org.assertj.core.api.Assertions.assertThat;

import dev.operatorstarter.autoconfigure.Widget;
import dev.operatorstarter.autoconfigure.widgets.WidgetOperatorApplication;
import dev.operatorstarter.client.KubernetesClient;
import dev.operatorstarter.client.config.KubeconfigLoader;
import dev.operatorstarter.manager.Manager;
import dev.operatorstarter.test.ClusterConnection;
import dev.operatorstarter.test.KubernetesTest;
import dev.operatorstarter.test.TestNamespace;
import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;

/**
 * {@code operator.local.exit-after-reconcile}: a local run ends with status 0 once every controller
 * has reconciled without failing, and with status 1, naming the controller that waits, when the
 * deadline passes first. The process exit is recorded here instead of taken.
 */
@KubernetesTest(crds = "crds/widgets.yaml")
@ExtendWith(OutputCaptureExtension.class)
class ExitAfterReconcileIT {

    /** The exit statuses the runs asked for, in order. */
    static final BlockingQueue<Integer> EXITS = new LinkedBlockingQueue<>();

    /** The listener as LocalKubernetes makes it, with the recorded exit and the deadline a test sets. */
    static class RecordedExit {

        @Bean
        static ExitAfterReconcile recordedExitAfterReconcile(ObjectProvider<Manager> manager,
                ObjectProvider<LocalRunCheck> checks, org.springframework.core.env.Environment environment) {
            return new ExitAfterReconcile(manager::getObject, () -> checks.orderedStream().toList(),
                    environment.getRequiredProperty(ExitAfterReconcile.DEADLINE_PROPERTY, Duration.class), EXITS::add);
        }
    }

    /** Whether {@link TheFlag}'s check passes. */
    static final java.util.concurrent.atomic.AtomicBoolean FLAG = new java.util.concurrent.atomic.AtomicBoolean();

    /** A {@link LocalRunCheck} bean that passes while {@link #FLAG} is set. */
    static class TheFlag {

        @Bean
        LocalRunCheck theFlag() {
            return new LocalRunCheck() {
                @Override
                public String description() {
                    return "the flag to be set";
                }

                @Override
                public boolean passed() {
                    return FLAG.get();
                }
            };
        }
    }

    @Test
    void theRunWaitsForItsChecksAfterTheReconcilesAndFailsNamingTheOneThatDidNotPass(ClusterConnection connection,
            TestNamespace namespace, CapturedOutput output) throws InterruptedException {
        EXITS.clear();
        FLAG.set(false);
        try (KubernetesClient admin = KubernetesClient.create(KubeconfigLoader.load(connection.kubeconfig(), null))) {
            admin.resources(Widget.class).inNamespace(namespace.name()).create(Widget.named("first", "blue"));
        }
        try (ConfigurableApplicationContext context = run(namespace, "5s", TheFlag.class)) {
            assertThat(EXITS.poll(60, TimeUnit.SECONDS)).isEqualTo(1);
            assertThat(output).contains("Every controller reconciled, but not the flag to be set within PT5S");
        }
    }

    @Test
    void theRunEndsWithStatusZeroOnceTheReconcilesAreDoneAndItsChecksPass(ClusterConnection connection,
            TestNamespace namespace, CapturedOutput output) throws InterruptedException {
        EXITS.clear();
        FLAG.set(true);
        try (KubernetesClient admin = KubernetesClient.create(KubeconfigLoader.load(connection.kubeconfig(), null))) {
            admin.resources(Widget.class).inNamespace(namespace.name()).create(Widget.named("first", "blue"));
        }
        try (ConfigurableApplicationContext context = run(namespace, "60s", TheFlag.class)) {
            assertThat(EXITS.poll(60, TimeUnit.SECONDS)).isEqualTo(0);
            assertThat(output).contains(", and the flag to be set: done; stopping as");
        }
    }

    @Test
    void theRunEndsWithStatusZeroOnceTheControllerHasReconciled(ClusterConnection connection, TestNamespace namespace,
            CapturedOutput output) throws InterruptedException {
        EXITS.clear();
        try (KubernetesClient admin = KubernetesClient.create(KubeconfigLoader.load(connection.kubeconfig(), null))) {
            admin.resources(Widget.class).inNamespace(namespace.name()).create(Widget.named("first", "blue"));
        }
        try (ConfigurableApplicationContext context = run(namespace, "60s")) {
            assertThat(EXITS.poll(60, TimeUnit.SECONDS)).isEqualTo(0);
            assertThat(context.isActive()).as("closed before the exit").isFalse();
            assertThat(output).contains("Every controller reconciled (widget: ");
        }
    }

    @Test
    void theRunFailsWithStatusOneNamingTheControllerWhenNothingReconciledInTime(TestNamespace namespace,
            CapturedOutput output) throws InterruptedException {
        EXITS.clear();
        try (ConfigurableApplicationContext context = run(namespace, "2s")) {
            assertThat(EXITS.poll(60, TimeUnit.SECONDS)).as("an empty namespace: nothing to reconcile").isEqualTo(1);
            assertThat(output).contains("No successful reconcile within PT2S (operator.local.exit-deadline): widget (");
        }
    }

    private static ConfigurableApplicationContext run(TestNamespace namespace, String deadline, Class<?>... more) {
        Class<?>[] sources = new Class<?>[more.length + 2];
        sources[0] = LocalKubernetes.class;
        sources[1] = RecordedExit.class;
        System.arraycopy(more, 0, sources, 2, more.length);
        return SpringApplication.from(args -> SpringApplication.run(WidgetOperatorApplication.class, args))
                .with(sources)
                .run("--spring.main.web-application-type=none", "--spring.application.name=exit-after-reconcile",
                        "--operator.leader-election.enabled=false", "--" + LocalKubernetes.NODES_PROPERTY + "=0",
                        "--operator.informers.namespaces=" + namespace.name(),
                        "--" + ExitAfterReconcile.DEADLINE_PROPERTY + "=" + deadline)
                .getApplicationContext();
    }
}
