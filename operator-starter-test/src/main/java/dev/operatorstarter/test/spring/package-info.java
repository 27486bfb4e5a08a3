/**
 * The Spring TestContext integration of {@link dev.operatorstarter.test.KubernetesTest}: a Spring
 * test that carries the annotation gets an application context pointed at the JVM's shared test
 * cluster, with no connection code.
 *
 * <pre>{@code
 * @SpringBootTest
 * @KubernetesTest(crds = "crds/widgets.yaml")
 * class WidgetOperatorIT {
 *     @Test
 *     void reconcilesAWidget(TestNamespace namespace) { ... }
 * }
 * }</pre>
 *
 * <p>{@link dev.operatorstarter.test.spring.KubernetesTestContextCustomizerFactory}, registered in
 * {@code META-INF/spring.factories}, installs the annotation's CRDs before the context refreshes and
 * sets {@code operator.client.kubeconfig} to the cluster's admin kubeconfig, which the operator
 * starter's auto-configuration reads. The JUnit extension and this integration share one cluster
 * per JVM, whichever of them needs it first.
 *
 * <p>Spring is optional for the harness: {@code spring-test} and {@code spring-context} are optional
 * dependencies, present in any project that runs Spring tests. This package is loaded only by
 * Spring's TestContext framework.
 */
@NullMarked
package dev.operatorstarter.test.spring;

import org.jspecify.annotations.NullMarked;
