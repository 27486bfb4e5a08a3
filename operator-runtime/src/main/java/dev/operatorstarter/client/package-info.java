/**
 * The Kubernetes client (client-go's clientset, typed and dynamic clients): {@link
 * dev.operatorstarter.client.KubernetesClient} hands out a {@link
 * dev.operatorstarter.client.ResourceClient} per resource, typed by a model class or dynamic over
 * {@code GenericKubernetesResource}, with every verb including server-side apply, status and scale.
 *
 * <p>Sub-packages: {@code config} (kubeconfig and in-cluster configuration), {@code rest} (the
 * transport, the REST client, watch events and API errors), {@code discovery} (groups, resources,
 * the REST mapper).
 */
@NullMarked
package dev.operatorstarter.client;

import org.jspecify.annotations.NullMarked;
