package dev.operatorstarter.test;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolutionException;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.junit.platform.commons.support.AnnotationSupport;

/**
 * The JUnit 5 extension behind {@link KubernetesTest}: one cluster per JVM (kept in the root
 * context's store and closed when the run ends), CRDs installed before each class, and parameters
 * resolved per {@link KubernetesTest}'s contract.
 *
 * <p>A cluster that fails to start fails every class that needs it with the same cause, without
 * starting (or building) again.
 */
public final class KubernetesExtension implements BeforeAllCallback, ParameterResolver {

    private static final ExtensionContext.Namespace STORE = ExtensionContext.Namespace.create(KubernetesExtension.class);

    @Override
    public void beforeAll(ExtensionContext context) {
        SharedCluster shared = shared(context);
        shared.cluster(); // a cluster that could not start fails the class here, before any test
        KubernetesTest annotation = AnnotationSupport.findAnnotation(context.getRequiredTestClass(), KubernetesTest.class)
                .orElse(null);
        if (annotation != null) {
            for (String crd : annotation.crds()) {
                shared.installCrdsOnce(crd, context.getRequiredTestClass().getClassLoader());
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
        SharedCluster shared = shared(context);
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

    private static SharedCluster shared(ExtensionContext context) {
        return context.getRoot().getStore(STORE).computeIfAbsent(SharedCluster.class, key -> SharedCluster.start(),
                SharedCluster.class);
    }

    /** The JVM's cluster, or the failure that kept it from starting. Closed by JUnit at the end of the run. */
    private static final class SharedCluster implements AutoCloseable {

        private final @Nullable KubernetesCluster cluster;
        private final @Nullable ClusterAccess access;
        private final @Nullable RuntimeException failure;
        private final Set<String> installedCrds = ConcurrentHashMap.newKeySet();

        private SharedCluster(@Nullable KubernetesCluster cluster, @Nullable RuntimeException failure) {
            this.cluster = cluster;
            this.access = cluster == null ? null : new ClusterAccess(cluster.connection());
            this.failure = failure;
        }

        static SharedCluster start() {
            try {
                return new SharedCluster(KubernetesClusters.start(), null);
            } catch (RuntimeException e) {
                return new SharedCluster(null, e);
            }
        }

        KubernetesCluster cluster() {
            if (cluster == null) {
                throw new ClusterStartException("the test cluster for this run could not be started: "
                        + (failure == null ? "unknown reason" : failure.getMessage()), failure);
            }
            return cluster;
        }

        ClusterAccess access() {
            cluster();
            return access;
        }

        synchronized void installCrdsOnce(String resource, ClassLoader loader) {
            if (!installedCrds.contains(resource)) {
                access().installCrds(resource, loader);
                installedCrds.add(resource);
            }
        }

        @Override
        public void close() {
            if (cluster != null) {
                cluster.close();
            }
        }
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
