/**
 * Helm charts in tests, rendered and installed by Helm itself: helm-java runs Helm 3 as a native
 * library inside the test's JVM, so no {@code helm} binary is needed.
 *
 * <p>{@link dev.operatorstarter.test.helm.HelmChart} is a chart folder: {@code helm lint --strict},
 * {@code helm template} into a {@link dev.operatorstarter.test.helm.RenderedChart} (the documents,
 * found by kind and name, and a Role's rules as {@code group/resource:verb} permissions) and
 * {@code helm install} into the test cluster as a {@link dev.operatorstarter.test.helm.ChartRelease},
 * which uninstalls when closed. To run an operator as the pod of the installed Deployment (its
 * ServiceAccount, its environment), see {@code dev.operatorstarter.autoconfigure.local.DeploymentPod}
 * in the starter.
 *
 * <p>Needs {@code com.marcnuri.helm-java:helm-java} and the native library of the machine
 * ({@code com.marcnuri.helm-java:linux-amd64}, {@code darwin-arm64}, ...) on the test class path:
 * optional dependencies of this module, whose versions {@code operator-starter-parent} manages.
 */
@NullMarked
package dev.operatorstarter.test.helm;

import org.jspecify.annotations.NullMarked;
