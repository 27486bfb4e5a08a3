package dev.operatorstarter.test.spring;

import dev.operatorstarter.test.KubernetesTest;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.springframework.test.context.ContextConfigurationAttributes;
import org.springframework.test.context.ContextCustomizer;
import org.springframework.test.context.ContextCustomizerFactory;
import org.springframework.test.context.TestContextAnnotationUtils;

/**
 * Points the application context of a Spring test annotated with {@link KubernetesTest} at the
 * JVM's shared test cluster. Registered in {@code META-INF/spring.factories}, so any Spring
 * TestContext test ({@code @SpringBootTest}, {@code @SpringJUnitConfig}, ...) that also carries
 * {@code @KubernetesTest} (on itself, a superclass, an enclosing class or a composed annotation) gets
 * it without code.
 *
 * <p>Before the context refreshes, the customizer this factory returns:
 * <ol>
 *   <li>starts the shared cluster if no one did ({@link dev.operatorstarter.test.KubernetesClusters#shared()}),
 *       failing the context with {@link dev.operatorstarter.test.ClusterStartException} if it cannot;
 *   <li>installs the annotation's {@link KubernetesTest#crds() CRDs} and waits until they are
 *       Established, once per resource and JVM, so that informers started during refresh find them;
 *   <li>adds a property source named {@value KubernetesTestContextCustomizer#PROPERTY_SOURCE_NAME}
 *       holding {@value KubernetesTestContextCustomizer#KUBECONFIG_PROPERTY}, the absolute path of
 *       the cluster's admin kubeconfig. It overrides application properties, system properties and
 *       the environment; the test's own properties ({@code @TestPropertySource},
 *       {@code @SpringBootTest(properties = ...)}, {@code @DynamicPropertySource}) still win, so a
 *       test can point elsewhere on purpose.
 * </ol>
 *
 * <p>Test classes with the same set of CRDs (order and duplicates aside) get equal customizers, so
 * they share one cached context when the rest of their configuration matches. Nothing is started
 * until Spring loads a context: building the factory or the customizer contacts no server.
 */
public final class KubernetesTestContextCustomizerFactory implements ContextCustomizerFactory {

    /** Called by Spring through {@code spring.factories}. */
    public KubernetesTestContextCustomizerFactory() {
    }

    /** A customizer for a class with {@link KubernetesTest}, else {@code null}. */
    @Override
    public @Nullable ContextCustomizer createContextCustomizer(Class<?> testClass,
            List<ContextConfigurationAttributes> configAttributes) {
        KubernetesTest annotation = TestContextAnnotationUtils.findMergedAnnotation(testClass, KubernetesTest.class);
        return annotation == null ? null : new KubernetesTestContextCustomizer(annotation.crds());
    }
}
