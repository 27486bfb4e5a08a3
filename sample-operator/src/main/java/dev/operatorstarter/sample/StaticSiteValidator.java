package dev.operatorstarter.sample;

import dev.operatorstarter.autoconfigure.webhook.AdmissionWebhook;
import dev.operatorstarter.cache.InformerSyncException;
import dev.operatorstarter.cache.Lister;
import dev.operatorstarter.cache.SharedInformerFactory;
import dev.operatorstarter.webhook.Admission;
import dev.operatorstarter.webhook.AdmissionVerdict;
import dev.operatorstarter.webhook.ValidatingHandler;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Collectors;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * Keeps the StaticSites of each namespace within a budget of web-server replicas
 * ({@code sample.max-replicas-per-namespace}, 20 by default): a site is refused when its
 * {@code spec.replicas} and those of the namespace's other sites add up to more.
 *
 * <p>The CRD's schema and CEL rules cannot say this: they see one object (and its old self), never
 * the other objects of its namespace. The webhook reads them from the operator's own StaticSite
 * cache, so it costs the API server nothing. Only a rise in replicas is checked: lowering them, or
 * any other change, is never refused, so a namespace over its budget (the budget lowered, or sites
 * admitted at the same moment) can always scale down. Sites being deleted no longer count. It is a
 * guard, not a hard quota: two sites created within the cache's lag (usually milliseconds) are each
 * checked without the other.
 */
@AdmissionWebhook(path = StaticSiteValidator.PATH)
public class StaticSiteValidator implements ValidatingHandler<StaticSite> {

    /** Where the API server calls it (the chart's {@code webhooks.validating.path}). */
    public static final String PATH = "/validate-staticsites";
    /** How long a review waits for the cache at start-up: within the shortest webhook timeout (1 s). */
    static final Duration SYNC_WAIT = Duration.ofMillis(900);

    private final Lister<StaticSite> sites;
    private final CacheSync synced;
    private final int budget;

    /** Waits, at most {@code timeout}, until the caches are filled; false when they are not by then. */
    @FunctionalInterface
    interface CacheSync {
        boolean await(Duration timeout) throws InterruptedException;
    }

    @Autowired
    public StaticSiteValidator(Lister<StaticSite> sites, SharedInformerFactory informers, SampleProperties properties) {
        this(sites, timeout -> {
            try {
                informers.waitForCacheSync(timeout);
                return true;
            } catch (InformerSyncException notYet) {
                return false;
            }
        }, properties.maxReplicasPerNamespace());
    }

    StaticSiteValidator(Lister<StaticSite> sites, CacheSync synced, int budget) {
        this.sites = sites;
        this.synced = synced;
        this.budget = budget;
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
        if (!synced.await(SYNC_WAIT)) {
            return AdmissionVerdict.deny(503, "ServiceUnavailable", "the sample operator has not read the "
                    + "namespace's StaticSites yet (it is starting): try again in a few seconds");
        }
        String namespace = admission.namespace();
        List<StaticSite> others = sites.namespace(namespace).list().stream()
                .filter(other -> !other.getMetadata().getName().equals(admission.name()) && other.getSpec() != null
                        && other.getMetadata().getDeletionTimestamp() == null)
                .sorted(Comparator.comparing(other -> other.getMetadata().getName()))
                .toList();
        int taken = others.stream().mapToInt(other -> other.getSpec().replicas()).sum();
        if (taken + wanted <= budget) {
            return AdmissionVerdict.allow();
        }
        String who = others.isEmpty() ? "" : " (" + others.stream()
                .map(other -> other.getMetadata().getName() + ": " + other.getSpec().replicas())
                .collect(Collectors.joining(", ")) + ")";
        return AdmissionVerdict.deny("the StaticSites of namespace " + namespace + " may ask for "
                + budget + " web-server replicas together; the others ask for " + taken + who
                + ", so this one may have at most " + Math.max(0, budget - taken) + ", not " + wanted
                + " (sample.max-replicas-per-namespace)");
    }
}
