/**
 * Client configuration: {@link dev.operatorstarter.client.config.ClientConfig} read from
 * kubeconfig files ({@link dev.operatorstarter.client.config.KubeconfigLoader}, kubectl's merge
 * rules) or from a pod's service account ({@link dev.operatorstarter.client.config.InClusterConfig}).
 *
 * <p>Guarantees: certificates and keys are read and checked when the configuration is loaded; every
 * problem is a {@link dev.operatorstarter.client.config.ConfigException} naming the file, the
 * context and the field; no {@code toString} shows a token, password or key.
 */
@NullMarked
package dev.operatorstarter.client.config;

import org.jspecify.annotations.NullMarked;
