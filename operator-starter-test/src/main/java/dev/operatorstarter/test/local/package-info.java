/**
 * The local backend: etcd, kube-apiserver and kube-controller-manager as child processes, compiled
 * with {@code go build} from the wrapper Go modules shipped in this jar and cached under the
 * user's cache folder, keyed by version. Start one with
 * {@link dev.operatorstarter.test.local.LocalApiServer#start}; see {@code docs/testing/local-api-server.md}.
 */
@NullMarked
package dev.operatorstarter.test.local;

import org.jspecify.annotations.NullMarked;
