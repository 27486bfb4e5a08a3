package dev.operatorstarter.test.spring;

import dev.operatorstarter.test.KubernetesCluster;
import dev.operatorstarter.test.KubernetesClusters;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.MutablePropertySources;
import org.springframework.core.env.PropertySource;
import org.springframework.test.context.ContextCustomizer;
import org.springframework.test.context.MergedContextConfiguration;
import org.springframework.test.context.support.TestPropertySourceUtils;

/**
 * Installs a test class's CRDs on the shared cluster and adds the cluster's kubeconfig to the
 * environment, before the context refreshes; see {@link KubernetesTestContextCustomizerFactory}.
 * Equal to another when their CRD sets are equal: Spring's context cache key includes customizers.
 */
final class KubernetesTestContextCustomizer implements ContextCustomizer {

    static final String PROPERTY_SOURCE_NAME = "kubernetesTestCluster";
    static final String KUBECONFIG_PROPERTY = "operator.client.kubeconfig";

    /** What the test declares itself, highest first; the cluster's source goes right below them. */
    private static final List<String> TEST_PROPERTY_SOURCES = List.of(
            "Dynamic Test Properties", // @DynamicPropertySource, DynamicPropertyRegistrar beans
            TestPropertySourceUtils.INLINED_PROPERTIES_PROPERTY_SOURCE_NAME); // @TestPropertySource, @SpringBootTest

    /** In the annotation's order, for installation; compared as a set. */
    private final Set<String> crds;

    KubernetesTestContextCustomizer(String[] crds) {
        this.crds = Collections.unmodifiableSet(new LinkedHashSet<>(Arrays.asList(crds)));
    }

    @Override
    public void customizeContext(ConfigurableApplicationContext context, MergedContextConfiguration config) {
        KubernetesCluster cluster = KubernetesClusters.shared();
        ClassLoader loader = config.getTestClass().getClassLoader();
        for (String crd : crds) {
            KubernetesClusters.installCrds(crd, loader);
        }
        String kubeconfig = cluster.connection().kubeconfig().toAbsolutePath().toString();
        addBelowTestProperties(context.getEnvironment().getPropertySources(),
                new MapPropertySource(PROPERTY_SOURCE_NAME, Map.of(KUBECONFIG_PROPERTY, kubeconfig)));
    }

    /**
     * Adds {@code source} first, or right below the lowest of the test's own property sources that
     * is present. Those the test adds later (Spring adds them first) stay above it, too.
     */
    static void addBelowTestProperties(MutablePropertySources sources, PropertySource<?> source) {
        String lowestTestSource = null;
        for (String name : TEST_PROPERTY_SOURCES) {
            if (sources.contains(name)) {
                lowestTestSource = name;
            }
        }
        if (lowestTestSource == null) {
            sources.addFirst(source);
        } else {
            sources.addAfter(lowestTestSource, source);
        }
    }

    @Override
    public boolean equals(@Nullable Object other) {
        return other instanceof KubernetesTestContextCustomizer that && crds.equals(that.crds);
    }

    @Override
    public int hashCode() {
        return crds.hashCode();
    }

    @Override
    public String toString() {
        return "KubernetesTestContextCustomizer[crds=" + crds + "]";
    }
}
