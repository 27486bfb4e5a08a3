package dev.operatorstarter;

import dev.operatorstarter.client.KubernetesClient;
import dev.operatorstarter.client.config.KubeconfigLoader;
import dev.operatorstarter.test.KubernetesClusters;
import dev.operatorstarter.test.KubernetesTest;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * Resolves {@link KubernetesClient} parameters of a {@link KubernetesTest} class: a client of the
 * shared test cluster with its admin credentials, made from the cluster's kubeconfig the way users
 * configure theirs. One client per test class, whether a {@code @BeforeAll} method or the tests ask
 * for it, closed when the class ends:
 *
 * <pre>{@code
 * @KubernetesTest
 * @ExtendWith(AdminClientExtension.class)
 * class SomethingIT {
 *     @Test
 *     void createsSomething(KubernetesClient client, TestNamespace namespace) { ... }
 * }
 * }</pre>
 *
 * <p>A class whose helpers use the client too keeps it in a static field that a
 * {@code @BeforeAll} method taking a {@code KubernetesClient} sets.
 *
 * <p>It lives in the runtime's tests rather than in {@code operator-starter-test}, which cannot
 * depend on the runtime (the runtime's tests depend on it).
 */
public final class AdminClientExtension implements ParameterResolver {

    private static final ExtensionContext.Namespace STORE = ExtensionContext.Namespace.create(AdminClientExtension.class);

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        return parameter.getParameter().getType() == KubernetesClient.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
        return classScope(context).getStore(STORE).computeIfAbsent(KubernetesClient.class,
                key -> KubernetesClient.create(KubeconfigLoader.load(KubernetesClusters.shared().connection()
                        .kubeconfig(), null)), KubernetesClient.class);
    }

    /** The context of the test class: the client outlives each test and is closed with the class. */
    private static ExtensionContext classScope(ExtensionContext context) {
        ExtensionContext scope = context;
        while (scope.getTestMethod().isPresent()) {
            scope = scope.getParent().orElseThrow();
        }
        return scope;
    }
}
