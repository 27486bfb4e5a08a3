/**
 * Machinery shared by the harness (a small HTTPS client, PEM and kubeconfig handling, waiting).
 * Not API: anything here may change without notice.
 */
@NullMarked
package dev.operatorstarter.test.internal;

import org.jspecify.annotations.NullMarked;
