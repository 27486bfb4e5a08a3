/**
 * A real Kubernetes API server for tests.
 *
 * <p>Annotate a test class with {@link dev.operatorstarter.test.KubernetesTest} to get one API
 * server per JVM, shared by every test class, from the backend that
 * {@link dev.operatorstarter.test.ClusterBackend#select} picks: local processes built with Go, K3s
 * through Testcontainers, or an existing cluster when asked for. Test methods receive a
 * {@link dev.operatorstarter.test.ClusterConnection}, the
 * {@link dev.operatorstarter.test.KubernetesCluster} itself, and throwaway
 * {@link dev.operatorstarter.test.TestNamespace}s; CRDs named on the annotation are installed and
 * Established before the first test runs. {@link dev.operatorstarter.test.Eventually} waits for an
 * outcome, such as a reconciler's write, by polling. A Spring test that carries the annotation gets
 * its application context pointed at the same server ({@code dev.operatorstarter.test.spring}).
 * {@code dev.operatorstarter.test.faults} puts a fault proxy between a client and the server:
 * latency, hangs, 429/5xx storms, cut streams, bad bodies, half-open and dropped connections.
 *
 * <p>This module does not depend on {@code operator-runtime}, so the runtime's own tests can use it
 * without testing the runtime with itself.
 */
@NullMarked
package dev.operatorstarter.test;

import org.jspecify.annotations.NullMarked;
