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
}
