/**
 * Client configuration: {@link dev.operatorstarter.client.config.ClientConfig} read from
 * kubeconfig files ({@link dev.operatorstarter.client.config.KubeconfigLoader}, kubectl's merge
 * rules) or from a pod's service account ({@link dev.operatorstarter.client.config.InClusterConfig}).
 *
 * <p>Guarantees: certificates and keys are read and checked when the configuration is loaded; every
 * problem is a {@link dev.operatorstarter.client.config.ConfigException} naming the file, the
 * context and the field; no message and no {@code toString} shows a token, password, key or the
 * text of a malformed file, and every server or proxy URL is printed through
 * {@link dev.operatorstarter.client.config.RedactedUri} (user info hidden). Without an explicit
 * kubeconfig, the order is controller-runtime's: {@code KUBECONFIG}, the service account in a pod,
 * {@code ~/.kube/config}. An {@code https://} proxy is refused: the client cannot speak TLS to it.
 */
@NullMarked
package dev.operatorstarter.client.config;

import org.jspecify.annotations.NullMarked;
