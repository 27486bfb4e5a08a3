package dev.operatorstarter.sample;

import dev.operatorstarter.autoconfigure.webhook.AdmissionWebhook;
import dev.operatorstarter.cache.InformerSyncException;
import dev.operatorstarter.cache.Lister;
import dev.operatorstarter.cache.SharedInformerFactory;
import dev.operatorstarter.client.KubernetesClient;
import dev.operatorstarter.client.ResourceClient;
import dev.operatorstarter.sharding.Sharding;
import dev.operatorstarter.webhook.Admission;
import dev.operatorstarter.webhook.AdmissionVerdict;
import dev.operatorstarter.webhook.ValidatingHandler;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * Keeps the StaticSites of each namespace within a budget of web-server replicas
 * ({@code sample.max-replicas-per-namespace}, 20 by default): a site is refused when its
 * {@code spec.replicas} and those of the namespace's other sites add up to more.
 *
 * <p>The CRD's schema and CEL rules cannot say this: they see one object (and its old self), never
 * the other objects of its namespace. The webhook reads them from the operator's own StaticSite
 * cache, so it costs the API server nothing; with sharding ({@code operator.sharding.enabled}) that
 * cache holds only this replica's share, so it lists the namespace's sites from the API server
 * instead, within the review's time. Only a rise in replicas is checked: lowering them, or
 * any other change, is never refused, so a namespace over its budget (the budget lowered, or sites
 * admitted at the same moment) can always scale down. Sites being deleted no longer count. It is a
 * guard, not a hard quota: two sites created within the cache's lag (usually milliseconds) are each
 * checked without the other.
 */
@AdmissionWebhook(path = StaticSiteValidator.PATH)
public class StaticSiteValidator implements ValidatingHandler<StaticSite> {

    /** Where the API server calls it (the chart's {@code webhooks.validating.path}). */
    public static final String PATH = "/validate-staticsites";
    /** How long a review waits for the cache at start-up, or for the API server: within the shortest webhook timeout (1 s). */
    static final Duration SYNC_WAIT = Duration.ofMillis(900);

    private final Sites sites;
    private final int budget;

    /** The StaticSites of a namespace, as far as the operator knows them. */
    @FunctionalInterface
    interface Sites {
        /** The sites of {@code namespace}; empty when they cannot be known yet (the cache is still filling). */
        Optional<List<StaticSite>> in(String namespace) throws InterruptedException;
    }

    @Autowired
    public StaticSiteValidator(Lister<StaticSite> sites, SharedInformerFactory informers, KubernetesClient client,
            ObjectProvider<Sharding> sharding, SampleProperties properties) {
        this(sharding.getIfAvailable() == null ? cached(sites, informers) : listed(client),
                properties.maxReplicasPerNamespace());
    }

    StaticSiteValidator(Sites sites, int budget) {
        this.sites = sites;
        this.budget = budget;
    }

    /** From the operator's cache, once it is filled (waiting at most {@link #SYNC_WAIT}). */
    private static Sites cached(Lister<StaticSite> sites, SharedInformerFactory informers) {
        return namespace -> {
            try {
                informers.waitForCacheSync(SYNC_WAIT);
            } catch (InformerSyncException notYet) {
                return Optional.empty();
            }
            return Optional.of(sites.namespace(namespace).list());
        };
    }

    /** From the API server, within {@link #SYNC_WAIT}: with sharding the cache holds this replica's share only. */
    private static Sites listed(KubernetesClient client) {
        ResourceClient<StaticSite> sites = client.resources(StaticSite.class).withDeadline(SYNC_WAIT);
        return namespace -> Optional.of(sites.inNamespace(namespace).list().items());
    }

    @Override
    public AdmissionVerdict validate(Admission<StaticSite> admission) throws InterruptedException {
        StaticSite site = admission.object();
        if (site == null || site.getSpec() == null) {
            return AdmissionVerdict.allow(); // a DELETE, or a site the schema refuses anyway
        }
        int wanted = site.getSpec().replicas();
        StaticSite old = admission.oldObject();
        if (old != null && old.getSpec() != null && wanted <= old.getSpec().replicas()) {
            return AdmissionVerdict.allow();
        }
        String namespace = admission.namespace();
        Optional<List<StaticSite>> known = sites.in(namespace);
        if (known.isEmpty()) {
            return AdmissionVerdict.deny(503, "ServiceUnavailable", "the sample operator has not read the "
                    + "namespace's StaticSites yet (it is starting): try again in a few seconds");
        }
        List<StaticSite> others = known.get().stream()
                .filter(other -> !other.getMetadata().getName().equals(admission.name()) && other.getSpec() != null
                        && other.getMetadata().getDeletionTimestamp() == null)
                .sorted(Comparator.comparing(other -> other.getMetadata().getName()))
                .toList();
        int taken = others.stream().mapToInt(other -> other.getSpec().replicas()).sum();
        if (taken + wanted <= budget) {
            return AdmissionVerdict.allow();
        }
        // Counts only, never the other sites' names: the webhook port answers any caller in the
        // cluster, and a forged review must not list what a namespace holds.
        return AdmissionVerdict.deny("the StaticSites of namespace " + namespace + " may ask for "
                + budget + " web-server replicas together; the " + others.size()
                + (others.size() == 1 ? " other asks" : " others ask") + " for " + taken
                + ", so this one may have at most " + Math.max(0, budget - taken) + ", not " + wanted
                + " (sample.max-replicas-per-namespace)");
    }
}
