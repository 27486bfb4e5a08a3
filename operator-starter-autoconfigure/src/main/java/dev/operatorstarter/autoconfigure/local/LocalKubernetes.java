package dev.operatorstarter.autoconfigure.local;

import dev.operatorstarter.autoconfigure.KubernetesConnectionDetails;
import dev.operatorstarter.client.config.ClientConfig;
import dev.operatorstarter.client.config.KubeconfigLoader;
import dev.operatorstarter.manager.Manager;
import dev.operatorstarter.test.ClusterConnection;
import dev.operatorstarter.test.ClusterHold;
import dev.operatorstarter.test.KubernetesCluster;
import dev.operatorstarter.test.KubernetesClusters;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.PropertySource;
import org.springframework.core.env.Environment;
import org.springframework.core.io.Resource;
import org.springframework.core.io.support.PathMatchingResourcePatternResolver;

/**
 * Runs an operator on your machine against a Kubernetes API server that the same process starts:
 * the one {@code operator-starter-test} starts for tests (local etcd and kube-apiserver processes,
 * K3s where Docker answers), shared by the JVM and stopped when it exits. As a development-time
 * service in Spring Boot's sense, its connection is a {@link KubernetesConnectionDetails} bean, so
 * the application needs no kubeconfig. Before the client connects, the application's CRDs are
 * installed: every {@code crds/*.yaml} on the classpath (the parent pom puts the chart's
 * {@code chart/crds} there for tests), or the resources listed in {@value #CRDS_PROPERTY}. The log
 * says how to point {@code kubectl} at the server: at the server's own kubeconfig in its temporary
 * run folder, or at a copy in a place of your choosing, {@value #KUBECONFIG_PROPERTY} (written
 * owner-only, as it holds the administrator's key).
 *
 * <p>It also switches on {@code operator.webhook.register.enabled} (as a default the application's
 * own properties override): when the application serves webhooks ({@code operator.webhook.enabled}),
 * they are registered with the local API server at the server's loopback address with its
 * generated CA, CRD conversions included, and removed when the application stops; the log lists
 * what was registered. Without it the developer would write those configurations by hand.
 *
 * <p>Pods run: the server gets {@value #NODES_PROPERTY} nodes (default 1), on the local backend
 * KWOK's fake nodes, with kube-scheduler and the workload controllers, so Deployments become
 * available as on a cluster.
 *
 * <p>With {@value #EXIT_AFTER_RECONCILE_PROPERTY}{@code =true} the run ends by itself once every
 * controller has reconciled without failing and every {@link LocalRunCheck} bean passes, and fails
 * when that has not happened within {@value #EXIT_DEADLINE_PROPERTY}: a build's check that the
 * operator runs.
 *
 * <p>On Ctrl-C the operator stops first (its Lease released, its informers stopped, its webhook
 * configurations removed) and the server after, once the application context has closed; the
 * server's processes are out of the terminal's reach, so the Ctrl-C does not stop them under the
 * operator. The JVM then exits with status 130, which {@code mvn spring-boot:test-run} counts as
 * a success.
 *
 * <p>Use it from a {@code main} in test scope and run that with {@code mvn spring-boot:test-run}:
 *
 * <pre>{@code
 * public class LocalGreetingOperator {
 *     public static void main(String[] args) {
 *         SpringApplication.from(GreetingOperator::main).with(LocalKubernetes.class).run(args);
 *     }
 * }
 * }</pre>
 */
@Configuration(proxyBeanMethods = false)
@PropertySource("classpath:dev/operatorstarter/autoconfigure/local/local-kubernetes.properties")
public class LocalKubernetes {

    /** Classpath resources holding the CRDs to install; default every {@code crds/*.yaml} and {@code crds/*.yml}. */
    public static final String CRDS_PROPERTY = "operator.local.crds";

    /** A file to copy the server's administrator kubeconfig to, for {@code kubectl}; default none. */
    public static final String KUBECONFIG_PROPERTY = "operator.local.kubeconfig";

    /**
     * When true, the run ends once every controller has finished one reconcile without failing and
     * every {@link LocalRunCheck} bean passes (exit status 0), or after {@value #EXIT_DEADLINE_PROPERTY}
     * with status 1; default false. For a build that checks the local run works.
     */
    public static final String EXIT_AFTER_RECONCILE_PROPERTY = ExitAfterReconcile.PROPERTY;

    /** How long {@value #EXIT_AFTER_RECONCILE_PROPERTY} waits, from the moment the application is ready; default 5 minutes. */
    public static final String EXIT_DEADLINE_PROPERTY = ExitAfterReconcile.DEADLINE_PROPERTY;

    /**
     * How many nodes Pods run on; default 1. On the local backend they are KWOK's fake nodes, with
     * kube-scheduler and the workload controllers beside them ({@code KubernetesCluster.ensureNodes}),
     * added in the background while the operator starts: on a fresh machine kube-scheduler and KWOK
     * are built first (about 2 minutes on 2 cores), and until then Pods stay Pending. 0 for none (and
     * no build). K3s and an existing cluster run Pods on their own nodes whatever this says.
     */
    public static final String NODES_PROPERTY = "operator.local.nodes";

    private static final Logger log = LoggerFactory.getLogger(LocalKubernetes.class);

    @Bean
    @ConditionalOnBooleanProperty(EXIT_AFTER_RECONCILE_PROPERTY)
    static ExitAfterReconcile localKubernetesExitAfterReconcile(ObjectProvider<Manager> manager,
            ObjectProvider<LocalRunCheck> checks, Environment environment) {
        return new ExitAfterReconcile(manager::getObject, () -> checks.orderedStream().toList(),
                environment.getProperty(EXIT_DEADLINE_PROPERTY, Duration.class, ExitAfterReconcile.DEFAULT_DEADLINE),
                System::exit);
    }

    /**
     * Keeps the server serving at JVM exit until this context has closed ({@link KubernetesClusters#holdShared()}):
     * on Ctrl-C the operator releases its Lease, stops its informers and removes its webhook
     * configurations first, and the server stops after, when this bean, which the connection
     * details and so everything that talks to the server depend on, is destroyed. Without Spring's
     * shutdown hook ({@code spring.main.register-shutdown-hook=false}) nothing would close the
     * context at exit, so nothing is held.
     */
    @Bean
    ClusterHold localKubernetesHold(Environment environment) {
        return environment.getProperty("spring.main.register-shutdown-hook", Boolean.class, true)
                ? KubernetesClusters.holdShared() : () -> { };
    }

    @Bean
    KubernetesConnectionDetails localKubernetesConnectionDetails(Environment environment,
            ClusterHold localKubernetesHold) {
        ClassLoader loader = LocalKubernetes.class.getClassLoader();
        List<String> crds = Binder.get(environment).bind(CRDS_PROPERTY, Bindable.listOf(String.class))
                .orElseGet(() -> crdsOnClasspath(loader));
        // kube-controller-manager (garbage collection) may join later, when it has to be built first
        KubernetesCluster cluster = KubernetesClusters.sharedForDevelopment();
        for (String crd : crds) {
            KubernetesClusters.installCrds(crd, loader);
        }
        addNodes(cluster, environment.getProperty(NODES_PROPERTY, Integer.class, 1));
        Path kubeconfig = cluster.connection().kubeconfig().toAbsolutePath();
        String copy = environment.getProperty(KUBECONFIG_PROPERTY);
        Path forKubectl = copy == null || copy.isBlank() ? kubeconfig : copyKubeconfig(cluster.connection(), Path.of(copy));
        log.info("Local Kubernetes API server {} (Kubernetes {}, {} backend), CRDs installed from {}; webhooks {}. "
                + "Point kubectl at it with: export KUBECONFIG={}", cluster.connection().server(),
                cluster.serverVersion(), cluster.backend().name().toLowerCase(Locale.ROOT),
                crds.isEmpty() ? "nowhere (none found under crds/ on the classpath)" : String.join(", ", crds),
                webhooks(environment), forKubectl);
        ClientConfig config = KubeconfigLoader.load(kubeconfig, null);
        return () -> config;
    }

    /** Adds {@code count} nodes to the cluster on a thread of its own, so the operator starts meanwhile. */
    static void addNodes(KubernetesCluster cluster, int count) {
        if (count < 0) {
            throw new IllegalArgumentException(NODES_PROPERTY + " must not be negative, was " + count);
        }
        if (count == 0) {
            return;
        }
        Thread nodes = new Thread(() -> {
            try {
                List<String> names = cluster.ensureNodes(count);
                log.info("Pods run on {} ({}={})", names, NODES_PROPERTY, count);
            } catch (RuntimeException e) {
                log.warn("The local cluster's nodes did not start, so Pods stay Pending: {}", e.getMessage(), e);
            }
        }, "local-kubernetes-nodes");
        nodes.setDaemon(true);
        nodes.start();
    }

    /** What happens to the application's webhooks, for the log. */
    static String webhooks(Environment environment) {
        if (!environment.getProperty("operator.webhook.enabled", Boolean.class, false)) {
            return "not served (operator.webhook.enabled is not true)";
        }
        return environment.getProperty("operator.webhook.register.enabled", Boolean.class, false)
                ? "registered with this server once served (operator.webhook.register.enabled)"
                : "served but not registered (operator.webhook.register.enabled=false)";
    }

    /** The server's kubeconfig copied to {@code target}, owner-only ({@link ClusterConnection#copyKubeconfigTo}). */
    static Path copyKubeconfig(ClusterConnection connection, Path target) {
        try {
            return connection.copyKubeconfigTo(target);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the local API server's kubeconfig to "
                    + target.toAbsolutePath() + " (" + KUBECONFIG_PROPERTY + "): " + e.getMessage(), e);
        }
    }

    /** Every {@code crds/*.yaml} and {@code crds/*.yml} on the classpath, as resource names. */
    static List<String> crdsOnClasspath(ClassLoader loader) {
        PathMatchingResourcePatternResolver resolver = new PathMatchingResourcePatternResolver(loader);
        List<String> names = new ArrayList<>();
        try {
            for (String pattern : List.of("classpath*:crds/*.yaml", "classpath*:crds/*.yml")) {
                for (Resource resource : resolver.getResources(pattern)) {
                    String name = "crds/" + resource.getFilename();
                    if (!names.contains(name)) {
                        names.add(name);
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list crds/ on the classpath", e);
        }
        names.sort(null);
        return names;
    }
}
