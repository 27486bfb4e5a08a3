package dev.operatorstarter.sample;

import dev.operatorstarter.client.KubernetesClient;
import dev.operatorstarter.client.PatchOptions;
import dev.operatorstarter.client.rest.PatchType;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import java.util.List;
import java.util.Map;

/**
 * What a ReplicaSet and the kubelets would make of a site's Deployment on a cluster with nodes:
 * {@code count} Pods with the Deployment's template, Running and Ready. The sample's integration
 * tests write them, as they write the Deployment's status, so that each step of a site's rollout
 * can be asserted in turn; the README's first command shows the same rollout on KWOK's nodes.
 */
final class WebServerPods {

    private WebServerPods() {
    }

    static void runReady(KubernetesClient client, String namespace, Deployment deployment, int count) {
        for (int i = 0; i < count; i++) {
            Pod pod = new PodBuilder().withNewMetadata().withName(deployment.getMetadata().getName() + "-web-" + i)
                    .withLabels(deployment.getSpec().getTemplate().getMetadata().getLabels()).endMetadata()
                    .withSpec(deployment.getSpec().getTemplate().getSpec()).build();
            client.coreV1().pods().inNamespace(namespace).create(pod);
            client.coreV1().pods().inNamespace(namespace).patchStatus(pod.getMetadata().getName(), PatchType.MERGE,
                    Map.of("status", Map.of("phase", "Running", "conditions",
                            List.of(Map.of("type", "Ready", "status", "True")))), PatchOptions.none());
        }
    }
}
