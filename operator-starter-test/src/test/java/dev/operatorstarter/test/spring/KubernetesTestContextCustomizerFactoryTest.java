package dev.operatorstarter.test.spring;

import static org.assertj.core.api.Assertions.assertThat;

import dev.operatorstarter.test.KubernetesTest;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.MutablePropertySources;
import org.springframework.core.io.support.SpringFactoriesLoader;
import org.springframework.test.context.ContextCustomizer;
import org.springframework.test.context.ContextCustomizerFactory;
import org.springframework.test.context.support.TestPropertySourceUtils;

/** Runs no cluster: the factory and its customizers start nothing until Spring loads a context. */
class KubernetesTestContextCustomizerFactoryTest {

    private final KubernetesTestContextCustomizerFactory factory = new KubernetesTestContextCustomizerFactory();

    @Test
    void isRegisteredWithSpringsTestContextFramework() {
        List<ContextCustomizerFactory> factories = SpringFactoriesLoader.forDefaultResourceLocation()
                .load(ContextCustomizerFactory.class);

        assertThat(factories).hasAtLeastOneElementOfType(KubernetesTestContextCustomizerFactory.class);
    }

    @Test
    void aClassWithoutKubernetesTestGetsNoCustomizer() {
        assertThat(customizerFor(PlainSpringTest.class)).isNull();
    }

    @Test
    void classesWithTheSameCrdsGetEqualCustomizersSoTheyShareACachedContext() {
        ContextCustomizer widgets = customizerFor(WidgetsTest.class);

        assertThat(widgets).isNotNull()
                .isEqualTo(customizerFor(OtherWidgetsTest.class))
                .hasSameHashCodeAs(customizerFor(OtherWidgetsTest.class));
        assertThat(customizerFor(WidgetsAndGadgetsTest.class))
                .as("order and duplicates aside").isEqualTo(customizerFor(GadgetsAndWidgetsTest.class));
    }

    @Test
    void classesWithDifferentCrdsGetDifferentCustomizers() {
        assertThat(customizerFor(WidgetsTest.class))
                .isNotEqualTo(customizerFor(WidgetsAndGadgetsTest.class))
                .isNotEqualTo(customizerFor(NoCrdsTest.class));
    }

    @Test
    void theAnnotationIsFoundOnASuperclassAndInAComposedAnnotation() {
        assertThat(customizerFor(InheritedWidgetsTest.class)).isEqualTo(customizerFor(WidgetsTest.class));
        assertThat(customizerFor(ComposedWidgetsTest.class)).isEqualTo(customizerFor(WidgetsTest.class));
    }

    @Test
    void theClustersPropertiesComeFirstWhenTheTestDeclaresNone() {
        MutablePropertySources sources = new MutablePropertySources();
        sources.addFirst(source("systemProperties"));

        KubernetesTestContextCustomizer.addBelowTestProperties(sources, source("kubernetesTestCluster"));

        assertThat(names(sources)).containsExactly("kubernetesTestCluster", "systemProperties");
    }

    @Test
    void theTestsOwnPropertiesStillWinOverTheClusters() {
        MutablePropertySources sources = new MutablePropertySources();
        sources.addFirst(source("systemProperties"));
        sources.addFirst(source(TestPropertySourceUtils.INLINED_PROPERTIES_PROPERTY_SOURCE_NAME));
        sources.addFirst(source("Dynamic Test Properties"));

        KubernetesTestContextCustomizer.addBelowTestProperties(sources, source("kubernetesTestCluster"));

        assertThat(names(sources)).containsExactly("Dynamic Test Properties",
                TestPropertySourceUtils.INLINED_PROPERTIES_PROPERTY_SOURCE_NAME, "kubernetesTestCluster",
                "systemProperties");
    }

    private ContextCustomizer customizerFor(Class<?> testClass) {
        return factory.createContextCustomizer(testClass, List.of());
    }

    private static MapPropertySource source(String name) {
        return new MapPropertySource(name, Map.of());
    }

    private static List<String> names(MutablePropertySources sources) {
        return sources.stream().map(source -> source.getName()).toList();
    }

    static class PlainSpringTest {
    }

    @KubernetesTest(crds = "crds/widgets.yaml")
    static class WidgetsTest {
    }

    @KubernetesTest(crds = "crds/widgets.yaml")
    static class OtherWidgetsTest {
    }

    @KubernetesTest(crds = {"crds/widgets.yaml", "crds/gadgets.yaml"})
    static class WidgetsAndGadgetsTest {
    }

    @KubernetesTest(crds = {"crds/gadgets.yaml", "crds/widgets.yaml", "crds/gadgets.yaml"})
    static class GadgetsAndWidgetsTest {
    }

    @KubernetesTest
    static class NoCrdsTest {
    }

    static class InheritedWidgetsTest extends WidgetsTest {
    }

    @Retention(RetentionPolicy.RUNTIME)
    @KubernetesTest(crds = "crds/widgets.yaml")
    @interface WidgetCluster {
    }

    @WidgetCluster
    static class ComposedWidgetsTest {
    }
}
