/**
 * Running an operator outside a cluster against a Kubernetes API server of operator-starter-test's:
 * on a developer's machine, against a development-time server
 * ({@link dev.operatorstarter.autoconfigure.local.LocalKubernetes}, from a test-scope {@code main}),
 * and in a test, as a pod of a Deployment a chart installed
 * ({@link dev.operatorstarter.autoconfigure.local.DeploymentPod}: the pod's ServiceAccount through
 * the in-cluster configuration, and its container's environment). Needs
 * {@code operator-starter-test} on the classpath.
 */
@NullMarked
package dev.operatorstarter.autoconfigure.local;

import org.jspecify.annotations.NullMarked;
