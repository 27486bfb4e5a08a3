package dev.operatorstarter.sample;

import dev.operatorstarter.autoconfigure.RequestMapper;
import dev.operatorstarter.cache.Lister;
import dev.operatorstarter.controller.ReconcileRequest;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodCondition;
import java.util.Collection;
import java.util.List;
import java.util.Map;

/**
 * A site's web-server Pods, as the cache shows them: a change to one reconciles its site (the Pods
 * belong to the Deployment's ReplicaSet, not to the site, so {@code owns} cannot map them), and
 * {@link #ready} counts those that serve. The informer holds only the Pods this operator's
 * Deployments made: the application narrows it to the {@code app.kubernetes.io/managed-by} label
 * ({@code operator.informers.resources.pods.label-selector}), the plain-Java operator likewise.
 */
public final class SitePods implements RequestMapper<Pod> {

    /** The cache's scope: the Pods of this operator's sites. */
    public static final String LABEL_SELECTOR = SiteResources.MANAGED_BY_LABEL + "=" + SampleOperatorApplication.NAME;

    @Override
    public Collection<ReconcileRequest> map(Pod pod) {
        Map<String, String> labels = pod.getMetadata().getLabels();
        if (labels == null || !"static-site".equals(labels.get(SiteResources.NAME_LABEL))
                || labels.get(SiteResources.INSTANCE_LABEL) == null) {
            return List.of();
        }
        return List.of(new ReconcileRequest(pod.getMetadata().getNamespace(), labels.get(SiteResources.INSTANCE_LABEL)));
    }

    /** How many of {@code site}'s Pods are Ready and not being deleted, from {@code pods}, a cache. */
    static int ready(Lister<Pod> pods, StaticSite site) {
        int ready = 0;
        for (Pod pod : pods.namespace(site.getMetadata().getNamespace()).list()) {
            Map<String, String> labels = pod.getMetadata().getLabels();
            if (labels != null && "static-site".equals(labels.get(SiteResources.NAME_LABEL))
                    && site.getMetadata().getName().equals(labels.get(SiteResources.INSTANCE_LABEL))
                    && pod.getMetadata().getDeletionTimestamp() == null && isReady(pod)) {
                ready++;
            }
        }
        return ready;
    }

    private static boolean isReady(Pod pod) {
        if (pod.getStatus() == null || pod.getStatus().getConditions() == null) {
            return false;
        }
        for (PodCondition condition : pod.getStatus().getConditions()) {
            if ("Ready".equals(condition.getType())) {
                return "True".equals(condition.getStatus());
            }
        }
        return false;
    }
}
