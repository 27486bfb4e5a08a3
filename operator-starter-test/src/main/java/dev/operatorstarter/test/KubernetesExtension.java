package dev.operatorstarter.test;

import java.util.Objects;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolutionException;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.junit.platform.commons.support.AnnotationSupport;

/**
 * The JUnit 5 extension behind {@link KubernetesTest}: one cluster per JVM (started on first use,
 * shared with the Spring TestContext integration, and stopped when the JVM exits), CRDs installed
 * before each class (once per resource and JVM), and parameters resolved per
 * {@link KubernetesTest}'s contract.
 *
 * <p>A cluster that fails to start fails every class that needs it with the same cause, without
 * starting (or building) again.
 */
public final class KubernetesExtension implements BeforeAllCallback, ParameterResolver {

    private static final ExtensionContext.Namespace STORE = ExtensionContext.Namespace.create(KubernetesExtension.class);

    private final SharedCluster shared;

    /** The extension on the JVM's shared cluster, as {@link KubernetesTest} registers it. */
    public KubernetesExtension() {
        this(SharedCluster.jvm());
    }

    /** The extension on another holder, for the harness's own tests. */
    KubernetesExtension(SharedCluster shared) {
        this.shared = Objects.requireNonNull(shared, "shared");
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        shared.cluster(); // a cluster that could not start fails the class here, before any test
        KubernetesTest annotation = AnnotationSupport.findAnnotation(context.getRequiredTestClass(), KubernetesTest.class)
                .orElse(null);
        if (annotation != null) {
            for (String crd : annotation.crds()) {
                shared.installCrdsOnce(crd, context.getRequiredTestClass().getClassLoader());
            }
            if (annotation.nodes() < 0) {
                throw new IllegalArgumentException("@KubernetesTest(nodes = " + annotation.nodes() + ") on "
                        + context.getRequiredTestClass().getName() + ": nodes must not be negative");
            }
            if (annotation.nodes() > 0) {
                shared.cluster().ensureNodes(annotation.nodes());
            }
        }
    }

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        Class<?> type = parameter.getParameter().getType();
        return type == ClusterConnection.class || type == KubernetesCluster.class || type == TestNamespace.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
        Class<?> type = parameter.getParameter().getType();
        if (type == ClusterConnection.class) {
            return shared.cluster().connection();
        }
        if (type == KubernetesCluster.class) {
            return shared.cluster();
        }
        if (type == TestNamespace.class) {
            String owner = context.getTestClass().map(Class::getSimpleName).orElse("test");
            // Keyed by the scope's id: a store lookup also sees the parents' entries, and a test
            // method must not receive the namespace its class's @BeforeAll method got.
            return context.getStore(STORE).computeIfAbsent("namespace:" + context.getUniqueId(),
                    key -> new ScopedNamespace(shared.access(), shared.access().createNamespace(owner)),
                    ScopedNamespace.class).namespace;
        }
        throw new ParameterResolutionException("unsupported parameter type " + type.getName());
    }

    /** A namespace that lives as long as the extension-context scope that created it. */
    private static final class ScopedNamespace implements AutoCloseable {

        private final ClusterAccess access;
        private final TestNamespace namespace;

        ScopedNamespace(ClusterAccess access, TestNamespace namespace) {
            this.access = access;
            this.namespace = namespace;
        }

        @Override
        public void close() {
            access.deleteNamespace(namespace);
        }
    }
}
