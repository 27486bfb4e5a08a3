package dev.operatorstarter.test;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Runs a test class against a real Kubernetes API server.
 *
 * <p>One server is started per JVM, on first use, and shared by every annotated class; it is
 * stopped when the JVM exits. A Spring test (any Spring TestContext test, {@code @SpringBootTest}
 * among them) that also carries this annotation gets its application context pointed at that
 * server, with the CRDs installed before the context refreshes; see
 * {@code dev.operatorstarter.test.spring}. Parameters of test methods, lifecycle methods and
 * constructors may be of type {@link ClusterConnection}, {@link KubernetesCluster} or
 * {@link TestNamespace}. A {@code TestNamespace} is created for the scope that asks for it (a test
 * method, or the class for {@code @BeforeAll} and constructor parameters) and deleted when that
 * scope ends; parameters in the same scope share one namespace.
 *
 * <p>With {@link #nodes()}, Pods run: scheduled onto nodes, Running and Ready, and deleted when
 * asked; on the local backend they are KWOK's fake nodes, where no container runs.
 *
 * <pre>{@code
 * @KubernetesTest(crds = "crds/widgets.yaml")
 * class WidgetIT {
 *     @Test
 *     void createsAWidget(ClusterConnection cluster, TestNamespace namespace) { ... }
 * }
 * }</pre>
 *
 * @see ClusterBackend for how the server is chosen
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
@ExtendWith(KubernetesExtension.class)
public @interface KubernetesTest {

    /**
     * Classpath resources holding CustomResourceDefinition manifests (YAML or JSON, several
     * documents per file allowed). Each is created, or updated if it exists, and the class's tests
     * start only once every CRD is Established.
     */
    String[] crds() default {};

    /**
     * How many nodes the class needs Pods to run on; default 0, none. With a positive number the
     * class starts only once that many nodes are Ready ({@link KubernetesCluster#ensureNodes}). On
     * the local backend, the shared server gets kube-scheduler, the workload controllers
     * (Deployments, ReplicaSets, StatefulSets, DaemonSets, Jobs, disruption budgets) and KWOK's fake
     * nodes on first demand, and keeps them for the rest of the JVM: a class that asks for none may
     * then see Pods scheduled too. The first demand builds kube-scheduler and KWOK if they are not
     * cached, so a run whose classes ask for none never builds them. On K3s and an existing cluster
     * the cluster's own nodes run the Pods, whatever their number.
     */
    int nodes() default 0;
}
