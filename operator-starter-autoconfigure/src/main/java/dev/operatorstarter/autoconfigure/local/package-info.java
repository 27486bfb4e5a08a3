/**
 * A development-time Kubernetes API server for running an operator on a developer's machine
 * ({@link dev.operatorstarter.autoconfigure.local.LocalKubernetes}), from a test-scope {@code main};
 * needs {@code operator-starter-test} on the classpath.
 */
@NullMarked
package dev.operatorstarter.autoconfigure.local;

import org.jspecify.annotations.NullMarked;
