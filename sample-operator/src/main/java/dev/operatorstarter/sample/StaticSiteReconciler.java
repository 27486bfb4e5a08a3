package dev.operatorstarter.sample;

import dev.operatorstarter.autoconfigure.Reconciler;
import dev.operatorstarter.cache.Lister;
import dev.operatorstarter.client.KubernetesClient;
import dev.operatorstarter.client.PatchOptions;
import dev.operatorstarter.client.ResourceClient;
import dev.operatorstarter.client.rest.PatchType;
import dev.operatorstarter.controller.Cleaner;
import dev.operatorstarter.controller.Conditions;
import dev.operatorstarter.controller.Controller;
import dev.operatorstarter.controller.ReconcileHandler;
import dev.operatorstarter.controller.ReconcileRequest;
import dev.operatorstarter.controller.ReconcileResult;
import dev.operatorstarter.controller.Writes;
import dev.operatorstarter.event.EventRecorder;
import dev.operatorstarter.event.EventType;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.ConditionBuilder;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentStatus;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * Brings each {@link StaticSite} to life: applies its ConfigMap, Deployment and Service (server-side
 * apply, owned through controller references, so the garbage collector deletes them with the
 * site), publishes its address in the {@link SiteIndex}, and reports {@code Ready} and
 * {@code Progressing} conditions with the generation they describe. A site is Ready once its
 * Deployment has rolled out the current content and as many of its web-server Pods as it asks for
 * are Ready, as the Pod cache shows them ({@link SitePods}), as on any cluster. Its finalizer removes the
 * site's index entry before the site goes, which owner references cannot do across namespaces.
 *
 * <p>Every step is idempotent, so a reconcile may run any number of times: the applies change
 * nothing when nothing changed, and status and Events are written only on a change.
 */
@Reconciler(owns = {ConfigMap.class, Deployment.class, Service.class}, watches = SitePods.class,
        finalizer = StaticSiteReconciler.FINALIZER, generationChanged = true)
public class StaticSiteReconciler implements ReconcileHandler<StaticSite>, Cleaner<StaticSite> {

    /** Held by every site until its index entry is removed. */
    public static final String FINALIZER = StaticSite.GROUP + "/site-index";

    private static final Logger log = LoggerFactory.getLogger(StaticSiteReconciler.class);

    private final Lister<StaticSite> sites;
    private final Lister<Pod> pods;
    private final KubernetesClient client;
    private final EventRecorder events;
    private final SiteIndex index;
    private final String siteImage;
    private final Clock clock;
    private final Supplier<ResourceClient<StaticSite>> statuses;

    /**
     * As a Spring bean.
     *
     * @param controller this reconciler's own controller, asked for its tracked client when the first
     *        status is written (it is built from this bean, so it cannot be a plain constructor argument)
     */
    @Autowired
    public StaticSiteReconciler(Lister<StaticSite> sites, Lister<ConfigMap> configMaps, Lister<Pod> pods,
            KubernetesClient client, EventRecorder events, SampleProperties properties, ObjectProvider<Clock> clock,
            ObjectProvider<Controller<StaticSite>> controller) {
        this(sites, configMaps, pods, client, events, properties, clock.getIfAvailable(Clock::systemUTC),
                () -> controller.getObject().tracked(client.resources(StaticSite.class)));
    }

    /**
     * In plain Java ({@link PlainJavaSampleOperator}).
     *
     * @param statuses where the site's status is written: the controller's tracked client, so the next
     *        reconcile waits until the cache shows the status it wrote
     */
    public StaticSiteReconciler(Lister<StaticSite> sites, Lister<ConfigMap> configMaps, Lister<Pod> pods,
            KubernetesClient client, EventRecorder events, SampleProperties properties, Clock clock,
            Supplier<ResourceClient<StaticSite>> statuses) {
        this.sites = sites;
        this.pods = pods;
        this.client = client;
        this.statuses = statuses;
        this.events = events;
        String indexNamespace = properties.siteIndex().namespace();
        this.index = new SiteIndex(configMaps, client, indexNamespace == null || indexNamespace.isBlank()
                ? client.config().namespace() : indexNamespace, properties.siteIndex().name());
        this.siteImage = properties.siteImage();
        this.clock = clock;
    }

    @Override
    public ReconcileResult reconcile(ReconcileRequest request) {
        Optional<StaticSite> found = sites.namespace(request.namespace()).get(request.name());
        if (found.isEmpty()) {
            return ReconcileResult.done(); // deleted: the garbage collector removes what it owned
        }
        StaticSite site = found.get();
        if (site.getSpec() == null || site.getSpec().files().isEmpty()) {
            // the schema requires a file: a site without any was read without its conversion (a CRD with
            // strategy None would drop v1alpha1's content); serving an empty ConfigMap would wipe the site
            reportNoFiles(site);
            return ReconcileResult.done();
        }
        String namespace = request.namespace();
        PatchOptions apply = PatchOptions.forceApply(SampleOperatorApplication.NAME);
        client.coreV1().configMaps().inNamespace(namespace).apply(SiteResources.content(site), apply);
        Deployment deployment = client.appsV1().deployments().inNamespace(namespace)
                .apply(SiteResources.deployment(site, siteImage), apply);
        client.coreV1().services().inNamespace(namespace).apply(SiteResources.service(site), apply);
        String url = SiteResources.url(site);
        index.publish(site, url);
        updateStatus(site, deployment, url);
        return ReconcileResult.done(); // changes of the Deployment's status and of its Pods reconcile the site again
    }

    @Override
    public void cleanup(StaticSite site) {
        index.unpublish(site);
        log.info("Removed {}/{} from the site index", site.getMetadata().getNamespace(), site.getMetadata().getName());
    }

    private void updateStatus(StaticSite site, Deployment deployment, String url) {
        long generation = Objects.requireNonNullElse(site.getMetadata().getGeneration(), 0L);
        int wanted = site.getSpec().replicas();
        DeploymentStatus rollout = deployment.getStatus();
        int available = SitePods.ready(pods, site);
        boolean rolledOut = rollout != null && rollout.getObservedGeneration() != null
                && rollout.getObservedGeneration() >= Objects.requireNonNullElse(deployment.getMetadata().getGeneration(), 0L)
                && Objects.requireNonNullElse(rollout.getUpdatedReplicas(), 0) == wanted
                && Objects.requireNonNullElse(rollout.getReplicas(), 0) == wanted && available == wanted;

        StaticSiteStatus current = site.getStatus();
        List<Condition> conditions = current == null ? null : current.conditions();
        conditions = Conditions.set(conditions, condition(StaticSiteStatus.READY, rolledOut, generation,
                rolledOut ? "Available" : "RollingOut",
                rolledOut ? available + " of " + wanted + " web servers serve the current content"
                        : available + " of " + wanted + " web servers available, rollout in progress"), clock);
        conditions = Conditions.set(conditions, condition(StaticSiteStatus.PROGRESSING, !rolledOut, generation,
                rolledOut ? "RolledOut" : "RollingOut",
                rolledOut ? "the web servers run the current content" : "waiting for the web servers to roll out"), clock);
        StaticSiteStatus next = new StaticSiteStatus(generation, available, url, conditions);
        if (next.equals(current)) {
            return;
        }
        log.info("{}/{} generation {}: {} of {} web servers available, Ready={}", site.getMetadata().getNamespace(),
                site.getMetadata().getName(), generation, available, wanted, rolledOut);
        writeStatus(site, next);
        boolean wasReady = current != null && Conditions.isTrue(current.conditions(), StaticSiteStatus.READY);
        if (current == null || !Objects.equals(current.observedGeneration(), generation)) {
            events.event(site, EventType.NORMAL, "Applied", "Apply", "generation " + generation + ": "
                    + site.getSpec().files().size() + " file(s), " + wanted + " replica(s)");
        }
        if (rolledOut && !wasReady) {
            events.event(site, EventType.NORMAL, "Available", "Rollout", "serving at " + url);
        } else if (!rolledOut && wasReady) {
            events.event(site, EventType.WARNING, "Unavailable", "Rollout",
                    available + " of " + wanted + " web servers available");
        }
    }

    private void reportNoFiles(StaticSite site) {
        long generation = Objects.requireNonNullElse(site.getMetadata().getGeneration(), 0L);
        StaticSiteStatus current = site.getStatus();
        List<Condition> conditions = current == null ? null : current.conditions();
        String message = "spec.files is empty, so nothing was applied (if it was written as v1alpha1, the CRD's "
                + "conversion webhook is missing)";
        conditions = Conditions.set(conditions, condition(StaticSiteStatus.READY, false, generation, "NoFiles", message),
                clock);
        conditions = Conditions.set(conditions, condition(StaticSiteStatus.PROGRESSING, false, generation, "NoFiles",
                message), clock);
        StaticSiteStatus next = new StaticSiteStatus(generation, current == null ? null : current.readyReplicas(),
                current == null ? null : current.url(), conditions);
        if (next.equals(current)) {
            return;
        }
        log.warn("{}/{} generation {}: {}", site.getMetadata().getNamespace(), site.getMetadata().getName(), generation,
                message);
        writeStatus(site, next);
        events.event(site, EventType.WARNING, "NoFiles", "Apply", message);
    }

    /**
     * Through the controller's tracked client: the next reconcile of the site then waits until the
     * cache shows this status, instead of computing it again from the old one (and writing it, and
     * its Events, twice).
     */
    private void writeStatus(StaticSite site, StaticSiteStatus status) {
        statuses.get().inNamespace(site.getMetadata().getNamespace())
                .patchStatus(site.getMetadata().getName(), PatchType.MERGE, Map.of("status", status), PatchOptions.none());
    }

    private static Condition condition(String type, boolean status, long generation, String reason, String message) {
        return new ConditionBuilder().withType(type).withStatus(status ? "True" : "False")
                .withObservedGeneration(generation).withReason(reason).withMessage(message).build();
    }
}
