package dev.operatorstarter.manager;

import dev.operatorstarter.cache.InformerOptions;
import dev.operatorstarter.cache.InformerScope;
import dev.operatorstarter.cache.SharedInformerFactory;
import dev.operatorstarter.client.KubernetesClient;
import dev.operatorstarter.client.ResourceType;
import dev.operatorstarter.event.EventBroadcaster;
import dev.operatorstarter.leaderelection.LeaderCallbacks;
import dev.operatorstarter.leaderelection.LeaderElectionConfig;
import dev.operatorstarter.leaderelection.LeaderElector;
import dev.operatorstarter.leaderelection.ResourceLock;
import io.fabric8.kubernetes.api.model.HasMetadata;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.UnaryOperator;
import org.jspecify.annotations.Nullable;

/** Describes a {@link Manager}; start with {@link Manager#builder}. Not thread-safe. */
public final class ManagerBuilder {
    final KubernetesClient client;
    ManagerOptions options = ManagerOptions.defaults();
    @Nullable SharedInformerFactory informers;
    @Nullable EventBroadcaster events;
    @Nullable ResourceLock lock;
    UnaryOperator<LeaderElectionConfig.Builder> election = UnaryOperator.identity();
    @Nullable Runnable onLostLeadership;
    final List<ManagerPlugin> plugins = new ArrayList<>();
    final Map<String, InformerScope> selectors = new HashMap<>();

    ManagerBuilder(KubernetesClient client) {
        this.client = Objects.requireNonNull(client, "client");
    }

    /** How the manager runs; default {@link ManagerOptions#defaults()}. */
    public ManagerBuilder options(ManagerOptions options) {
        this.options = Objects.requireNonNull(options, "options");
        return this;
    }

    /** The informer factory to run; default a new one on the client with {@link InformerOptions#defaults()}. */
    public ManagerBuilder informers(SharedInformerFactory informers) {
        this.informers = Objects.requireNonNull(informers, "informers");
        return this;
    }

    /** An event broadcaster to start and close with the manager; default none. */
    public ManagerBuilder events(EventBroadcaster events) {
        this.events = Objects.requireNonNull(events, "events");
        return this;
    }

    /**
     * Elects a leader on {@code lock}: the {@link RunnableGroup#LEADER_TERM} group runs in its
     * terms. {@code settings} tunes the election (timings, name, metrics); the manager gives the
     * callbacks. Without it, every replica runs that group.
     */
    public ManagerBuilder leaderElection(ResourceLock lock, UnaryOperator<LeaderElectionConfig.Builder> settings) {
        this.lock = Objects.requireNonNull(lock, "lock");
        this.election = Objects.requireNonNull(settings, "settings");
        return this;
    }

    /** After a lost term, stop for good and run {@code hook} (for example to end the process) instead of campaigning again. */
    public ManagerBuilder onLostLeadership(Runnable hook) {
        this.onLostLeadership = Objects.requireNonNull(hook, "hook");
        return this;
    }

    /**
     * The label and field selectors of every informer of {@code type} the {@link #controller}
     * builders make (controller-runtime's per-object cache options); a controller's own label
     * selector comes first for its primary, its owned label selector for owned types.
     */
    public ManagerBuilder selectors(Class<? extends HasMetadata> type, String labelSelector, String fieldSelector) {
        return selectors(ResourceType.of(type).groupVersionResource().groupResource(), labelSelector, fieldSelector);
    }

    /**
     * As {@link #selectors(Class, String, String)}, for the resource named {@code resource}: its
     * plural, and its group outside the core ({@code configmaps}, {@code deployments.apps}). The
     * manager refuses to start when no controller caches a resource named here.
     */
    public ManagerBuilder selectors(String resource, String labelSelector, String fieldSelector) {
        selectors.put(resource.strip(), InformerScope.all().withLabelSelector(labelSelector).withFieldSelector(fieldSelector));
        return this;
    }

    /** Installs {@code plugin} (for example a sharding) when the manager is built. */
    public ManagerBuilder plugin(ManagerPlugin plugin) {
        plugins.add(Objects.requireNonNull(plugin, "plugin"));
        return this;
    }

    SharedInformerFactory informers() {
        return informers != null ? informers : new SharedInformerFactory(client, InformerOptions.defaults());
    }

    /** The elector whose terms run {@code leaderTerms}; null without leader election. */
    @Nullable LeaderElector elector(LeaderCallbacks leaderTerms) {
        return lock == null ? null : new LeaderElector(election.apply(LeaderElectionConfig.builder(lock, leaderTerms))
                .build());
    }

    /** @throws IllegalStateException when a plugin cannot run in this manager */
    public Manager build() {
        return new Manager(this);
    }
}
