package dev.operatorstarter.sample;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.operatorstarter.client.KubernetesClient;
import dev.operatorstarter.client.ResourceClient;
import dev.operatorstarter.client.config.KubeconfigLoader;
import dev.operatorstarter.test.ClusterConnection;
import dev.operatorstarter.test.KubernetesTest;
import dev.operatorstarter.test.TestNamespace;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.jupiter.api.io.TempDir;

/**
 * The executable jar that the build packages and the Dockerfile layers, run as its own process with
 * {@code java -jar}: it starts, reconciles a site, and stops cleanly on SIGTERM, as it would in a
 * pod, and once more in Spring's AOT mode. Catches what the in-process tests cannot: a dependency
 * missing from the packaged jar, a bean definition Spring AOT cannot write as code.
 *
 * <p>The two runs go side by side, each in a namespace of its own: they mostly wait on the process.
 */
@KubernetesTest(crds = Examples.CRD)
@Execution(ExecutionMode.CONCURRENT)
class PackagedJarIT {

    private static final Duration WAIT = Duration.ofSeconds(90);

    @Test
    void theJarStartsReconcilesAndStopsOnSigterm(ClusterConnection connection, TestNamespace namespace,
            @TempDir Path folder) throws Exception {
        String log = runJar(List.of(), "packaged", connection, namespace, folder);
        assertThat(log).doesNotContain("Starting AOT-processed");
    }

    /**
     * The same jar in Spring's AOT mode on the JVM: the bean definitions are the code the build
     * generated ({@code process-aot}), including those of the {@code @Reconciler} registrar.
     */
    @Test
    void theJarRunsInSpringsAotModeToo(ClusterConnection connection, TestNamespace namespace, @TempDir Path folder)
            throws Exception {
        String log = runJar(List.of("-Dspring.aot.enabled=true"), "ahead-of-time", connection, namespace, folder);
        assertThat(log).contains("Starting AOT-processed SampleOperatorApplication");
    }

    /** Runs the jar with {@code jvmOptions} until it reconciled the site {@code site}, then stops it; its log. */
    private static String runJar(List<String> jvmOptions, String site, ClusterConnection connection,
            TestNamespace namespace, Path folder) throws Exception {
        Path jar = Path.of(System.getProperty("sample.jar", "target/sample-operator-0.1.0-SNAPSHOT.jar"));
        assertThat(jar).as("the packaged jar (mvn package)").isRegularFile();
        Path log = folder.resolve("operator.log");
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(jvmOptions);
        command.addAll(List.of("-jar", jar.toString(),
                "--operator.client.kubeconfig=" + connection.kubeconfig(), "--server.port=0", "--operator.webhook.port=0",
                "--operator.informers.namespaces=" + namespace.name(),
                "--operator.leader-election.lease-namespace=" + namespace.name(),
                "--sample.site-index.namespace=" + namespace.name()));
        Process operator = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        try (KubernetesClient admin = KubernetesClient.create(KubeconfigLoader.load(connection.kubeconfig(), null))) {
            ResourceClient<StaticSite> sites = admin.resources(StaticSite.class).inNamespace(namespace.name());
            sites.create(StaticSite.of(site, 1, Map.of("index.html", "<h1>" + site + "</h1>")));

            await().atMost(WAIT).until(() -> operatorExited(operator, log)
                    || sites.get(site).getStatus() != null);
            assertThat(sites.get(site).getStatus().observedGeneration()).isEqualTo(1L);
            assertThat(Files.readString(log)).contains(namespace.name() + "/" + site + " generation 1");
        } finally {
            operator.destroy(); // SIGTERM: Spring's graceful shutdown
            if (!operator.waitFor(60, TimeUnit.SECONDS)) {
                operator.destroyForcibly();
            }
        }
        assertThat(operator.exitValue()).as("exit status after SIGTERM; log:%n%s", Files.readString(log))
                .isIn(0, 143);
        String written = Files.readString(log);
        assertThat(written).doesNotContain("ERROR");
        return written;
    }

    private static boolean operatorExited(Process operator, Path log) throws Exception {
        if (operator.isAlive()) {
            return false;
        }
        throw new AssertionError("the operator exited with " + operator.exitValue() + ":\n" + Files.readString(log));
    }
}
