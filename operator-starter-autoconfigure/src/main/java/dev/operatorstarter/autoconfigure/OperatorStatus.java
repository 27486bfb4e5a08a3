package dev.operatorstarter.autoconfigure;

import dev.operatorstarter.cache.SharedIndexInformer;
import dev.operatorstarter.cache.SharedInformerFactory;
import dev.operatorstarter.leaderelection.LeaderElector;
import dev.operatorstarter.manager.ControllerStatus;
import dev.operatorstarter.manager.Manager;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * A read-only view of the running operator (informers, leadership, controllers) for health
 * indicators and the {@code operator} actuator endpoint. Every read is cheap and never calls the
 * API server.
 */
public final class OperatorStatus {

    /** One informer's state. */
    public record InformerStatus(String name, boolean synced, boolean watching, int cached,
            String resourceVersion, @Nullable String lastError) {
    }

    /**
     * Leader election's state.
     *
     * @param enabled whether replicas elect a leader
     * @param identity this replica's identity in the Lease
     * @param lease the Lease as namespace/name
     * @param leader whether this replica leads now
     * @param holder the holder the Lease showed last ("" when released or not read yet)
     */
    public record LeadershipStatus(boolean enabled, String identity, String lease, boolean leader, String holder) {
    }

    /**
     * Everything at once.
     *
     * @param waitingFor what start-up waits for the API server to serve ({@link #waitingFor()}); empty when nothing
     */
    public record Snapshot(List<ControllerStatus> controllers, LeadershipStatus leaderElection,
            List<InformerStatus> informers, List<String> waitingFor) {
    }

    private final SharedInformerFactory informers;
    private final Manager manager;
    private final @Nullable LeaderElector elector;
    private final String identity;
    private final String lease;

    /**
     * @param manager the operator's manager
     * @param identity this replica's identity in the Lease ("" without election)
     * @param lease the Lease as namespace/name ("" without election)
     */
    public OperatorStatus(Manager manager, String identity, String lease) {
        this.informers = manager.informers();
        this.manager = manager;
        this.elector = manager.leaderElector().orElse(null);
        this.identity = identity;
        this.lease = lease;
    }

    public List<InformerStatus> informers() {
        return informers.informers().stream().map(OperatorStatus::informer).toList();
    }

    private static InformerStatus informer(SharedIndexInformer<?> informer) {
        return new InformerStatus(informer.name(), informer.hasSynced(), informer.isWatching(),
                informer.indexer().size(), informer.lastSyncResourceVersion(),
                informer.lastError().map(Throwable::getMessage).orElse(null));
    }

    /**
     * What start-up waits for with {@code operator.informers.on-missing-crd=wait}: for each
     * resource the API server did not serve when last asked, a sentence naming it (for a custom
     * resource, its CRD). Empty when everything is served, or was never checked.
     */
    public List<String> waitingFor() {
        String server = manager.client().config().server().toString();
        return manager.missingResources().stream().map(missing -> missing.describe(server)).toList();
    }

    public LeadershipStatus leaderElection() {
        return elector == null ? new LeadershipStatus(false, identity, "", manager.isActive(), "")
                : new LeadershipStatus(true, identity, lease, elector.isLeader(), elector.leader());
    }

    public List<ControllerStatus> controllers() {
        return manager.controllers();
    }

    /** True while this replica's controllers should run: it leads, or there is no election. */
    public boolean controllersActive() {
        return manager.isActive();
    }

    public Snapshot snapshot() {
        return new Snapshot(controllers(), leaderElection(), informers(), waitingFor());
    }
}
