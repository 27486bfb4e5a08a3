package dev.operatorstarter.autoconfigure;

import dev.operatorstarter.leaderelection.LeaseTiming;
import dev.operatorstarter.manager.ManagerOptions.OnMissingResource;
import java.nio.file.Path;
import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.boot.convert.DurationUnit;
import org.springframework.util.unit.DataSize;

/**
 * Settings of the operator runtime, under {@code operator.*}. Every field has a default, so an
 * application needs none of them: it then talks to the cluster of the current kubeconfig (or of
 * the pod it runs in), watches all namespaces, runs one worker per controller and elects a leader.
 *
 * @param enabled whether the operator runtime is configured and started at all
 * @param client how to reach the API server
 * @param informers what the shared informers cache and how start-up waits for them
 * @param reader which reads of the {@code ObjectReader} bean skip the caches
 * @param controllers defaults of every controller
 * @param leaderElection whether and how replicas elect one leader that runs the controllers
 * @param events the Kubernetes Events the application records
 * @param metrics whether the runtime's meters are bound to the application's MeterRegistry
 * @param sharding whether the controllers' objects are spread over the replicas of a ring
 * @param permissionCheck the check of the operator's permissions with the API server at start-up
 */
@ConfigurationProperties("operator")
public record OperatorProperties(@DefaultValue("true") boolean enabled, @DefaultValue Client client,
        @DefaultValue Informers informers, @DefaultValue Reader reader, @DefaultValue Controllers controllers,
        @DefaultValue LeaderElection leaderElection, @DefaultValue Events events, @DefaultValue Metrics metrics,
        @DefaultValue Sharding sharding, @DefaultValue PermissionCheck permissionCheck) {

    /**
     * How to reach the API server.
     *
     * @param kubeconfig the kubeconfig file to read; default: the files in {@code KUBECONFIG}, else
     *     the pod's service account when running in a pod, else {@code ~/.kube/config}
     * @param context the kubeconfig context to use; default the current context
     * @param namespace the default namespace (for the leader-election lease, among others); default
     *     the context's namespace, or the pod's namespace in a cluster
     * @param qps a client-side limit on requests per second; 0 (the default) for none: the server's
     *     API Priority and Fairness protects it and answers 429, which the client honours
     * @param burst requests allowed at once above the {@code qps} rate; used only when {@code qps} is set
     * @param connectTimeout the TCP connect and TLS handshake limit
     * @param requestTimeout the limit for one attempt of a request (watches are exempt)
     * @param maxRetries how often a request is retried after 429, or after 503, 504 and connection
     *     resets for reads
     * @param maxWatchEventSize the most one watch event may take; a longer one ends the watch with
     *     an error naming the request and the limit (client-go's frame limit)
     * @param maxResponseSize the most one response read into memory may take, lists and watches
     *     aside
     * @param maxListResponseSize the most one list response may take; 2GB, the default, is read as
     *     2GB less one byte, as much as one buffer holds
     */
    public record Client(@Nullable Path kubeconfig, @Nullable String context, @Nullable String namespace,
            @DefaultValue("0") double qps, @DefaultValue("10") int burst,
            @DurationUnit(ChronoUnit.SECONDS) @DefaultValue("10s") Duration connectTimeout,
            @DurationUnit(ChronoUnit.SECONDS) @DefaultValue("60s") Duration requestTimeout,
            @DefaultValue("10") int maxRetries, @DefaultValue("16MB") DataSize maxWatchEventSize,
            @DefaultValue("16MB") DataSize maxResponseSize, @DefaultValue("2GB") DataSize maxListResponseSize) {
    }

    /**
     * What the shared informers cache.
     *
     * @param namespaces the namespaces every reconciler watches unless its annotation names others;
     *     empty (the default) for all namespaces
     * @param labelSelector a label selector every reconciler's primary resource must match, unless
     *     its annotation sets one; empty (the default) for all objects
     * @param resyncPeriod how often handlers get every cached object again as an update (no API
     *     call); 0 (the default) for never
     * @param cacheSyncTimeout how long start-up waits for the caches' first list; a timeout fails
     *     start-up (or, without waiting, marks the informers' health DOWN) naming each informer,
     *     its last error and, for a 403, the verb, resource and identity that were refused
     * @param waitForSyncOnStartup whether application start-up blocks until the caches have synced,
     *     as controller-runtime's manager does; when false, start-up goes on and controllers start
     *     once the caches have synced, while the {@code informers} health stays DOWN until then
     * @param stripManagedFields whether cached objects lose their {@code managedFields}, which
     *     halves the memory of a typical cache
     * @param compactObjects whether cached objects are compacted ({@code Transforms.compact()}):
     *     repeated strings and collections shared, lists and maps made exactly sized and read-only,
     *     which takes a Pod from about 11 KB to 3.4 KB; turn it off only for code that (wrongly)
     *     changes cached objects' lists or maps in place
     * @param resources what to cache of one resource, by its plural name and, outside the core group,
     *     its group: {@code operator.informers.resources.secrets.label-selector}, or with brackets
     *     {@code operator.informers.resources[deployments.apps].field-selector}; applies to every
     *     informer of that resource (a reconciler's own label selector still decides for its
     *     primary resource). A name that no reconciler informs on fails start-up.
     * @param onMissingCrd what start-up does when the API server does not serve a resource an
     *     informer needs, which for a custom resource means its CRD is not installed (checked in the
     *     server's discovery before the informers start): {@code fail} (the default) fails start-up
     *     at once naming the CRD; {@code wait} waits until it is served, while the {@code informers}
     *     health (readiness) is DOWN and names the CRD in its details; combine it with
     *     {@code wait-for-sync-on-startup=false} so the application starts meanwhile
     */
    public record Informers(@DefaultValue List<String> namespaces, @DefaultValue("") String labelSelector,
            @DefaultValue("0s") Duration resyncPeriod, @DefaultValue("2m") Duration cacheSyncTimeout,
            @DefaultValue("true") boolean waitForSyncOnStartup, @DefaultValue("true") boolean stripManagedFields,
            @DefaultValue("true") boolean compactObjects, @DefaultValue Map<String, ResourceCache> resources,
            @DefaultValue("fail") OnMissingResource onMissingCrd) {
    }

    /**
     * What the informers of one resource cache.
     *
     * @param labelSelector only objects whose labels match; empty for all
     * @param fieldSelector only objects whose fields match (for example {@code type!=kubernetes.io/tls}
     *     for Secrets); empty for all
     */
    public record ResourceCache(@DefaultValue("") String labelSelector, @DefaultValue("") String fieldSelector) {
    }

    /**
     * The {@code ObjectReader} bean, one reader for every type: it answers from an informer's cache
     * when the cache holds the answer in full, and from the API server otherwise (a type no
     * reconciler informs on, another namespace, objects outside a cache's selectors).
     *
     * @param uncached resources whose reads always go to the API server, even while a reconciler's
     *     informer caches them, by plural name and, outside the core group, group: {@code secrets},
     *     {@code deployments.apps}. For objects that must be read fresh rather than as the cache
     *     last saw them, such as a Secret another component rotates. Each must name a resource a
     *     reconciler caches in full (the others are read from the API server anyway); any other
     *     name fails start-up
     */
    public record Reader(@DefaultValue List<String> uncached) {
    }

    /**
     * Defaults of every controller ({@code @Reconciler} attributes override some of them).
     *
     * @param workers reconciles of different objects that run at once, per controller
     * @param reconcileTimeout a reconcile running longer is interrupted and retried; 0 (the default) for none
     * @param shutdownTimeout how long shutdown lets reconciles in flight finish before interrupting them
     * @param readYourWritesTimeout how long a reconcile waits for the cache to show the controller's
     *     own last write to the object before it runs anyway
     * @param rateLimiter how retries of failed or requeued reconciles are paced
     * @param priorityQueue whether each controller's work queue puts fresh changes ahead of the
     *     informers' initial lists and resyncs (giving one reconcile in every 4 to the request that
     *     has waited longest, so none starves); false reconciles in the order queued
     */
    public record Controllers(@DefaultValue("1") int workers, @DefaultValue("0s") Duration reconcileTimeout,
            @DefaultValue("25s") Duration shutdownTimeout, @DefaultValue("10s") Duration readYourWritesTimeout,
            @DefaultValue RateLimiter rateLimiter, @DefaultValue("true") boolean priorityQueue) {
    }

    /**
     * client-go's default controller rate limiter: the larger of a per-object exponential backoff
     * and an overall token bucket.
     *
     * @param baseDelay the first retry delay of an object, doubled on each further failure
     * @param maxDelay the longest retry delay of one object
     * @param qps retries per second across all objects
     * @param burst retries allowed at once above the {@code qps} rate
     */
    public record RateLimiter(@DefaultValue("5ms") Duration baseDelay, @DefaultValue("1000s") Duration maxDelay,
            @DefaultValue("10") double qps, @DefaultValue("100") int burst) {
    }

    /**
     * Lease-based leader election: only the leader runs controllers; the others keep their caches
     * warm and take over when the leader's lease runs out or is released.
     *
     * @param enabled whether replicas elect a leader; when false every replica runs the controllers
     * @param leaseName the Lease's name; default {@code spring.application.name} followed by
     *     {@code -leader}, or {@code operator-leader}
     * @param leaseNamespace the Lease's namespace; default the client's namespace (the pod's in a cluster)
     * @param identity this replica's identity in the Lease; default the {@code HOSTNAME} (the pod
     *     name in a cluster) followed by a random suffix
     * @param leaseDuration how long others wait after the last renewal before taking over
     * @param renewDeadline how long the leader keeps trying to renew before it gives up
     * @param retryPeriod the pause between attempts to acquire or renew
     * @param releaseOnShutdown whether a graceful shutdown releases the Lease, so another replica
     *     takes over within a retry period instead of a lease duration
     * @param onLost what a replica does after losing the Lease: {@code reelect} (stop the
     *     controllers, keep the caches, campaign again) or {@code shutdown} (report liveness BROKEN
     *     and close the application, as controller-runtime exits)
     */
    public record LeaderElection(@DefaultValue("true") boolean enabled, @Nullable String leaseName,
            @Nullable String leaseNamespace, @Nullable String identity, @DefaultValue("15s") Duration leaseDuration,
            @DefaultValue("10s") Duration renewDeadline, @DefaultValue("2s") Duration retryPeriod,
            @DefaultValue("true") boolean releaseOnShutdown, @DefaultValue("reelect") OnLost onLost) {

        /**
         * The lease duration, renew deadline and retry period as one {@link LeaseTiming}: the
         * leader-election Lease's and, with sharding, the member Leases'.
         *
         * @throws IllegalArgumentException naming the duration that is out of range (the renew
         *     deadline must be less than the lease duration and more than 1.2 times the retry period)
         */
        public LeaseTiming timing() {
            return new LeaseTiming(leaseDuration, renewDeadline, retryPeriod);
        }
    }

    /** What a replica does after losing the leader-election Lease. */
    public enum OnLost {
        /** Stop the controllers, keep the caches warm and campaign again. */
        REELECT,
        /** Report liveness BROKEN and close the application context. */
        SHUTDOWN
    }

    /**
     * Kubernetes Events.
     *
     * @param enabled whether an EventRecorder writes Events to the API server
     * @param reportingController the controller name written into every Event; default
     *     {@code spring.application.name}, or {@code operator-starter}
     * @param queueCapacity events waiting to be written; more are dropped and counted
     */
    public record Events(@DefaultValue("true") boolean enabled, @Nullable String reportingController,
            @DefaultValue("1000") int queueCapacity) {
    }

    /**
     * Metrics.
     *
     * @param enabled whether the runtime's meters (controller-runtime's names) are registered
     *     in the application's MeterRegistry
     */
    public record Metrics(@DefaultValue("true") boolean enabled) {
    }

    /**
     * Sharding: the objects of the sharded controllers are spread over the replicas, each replica a
     * member of a ring with a Lease of its own; the elected leader assigns every object to a live
     * member with a label, and each replica caches and reconciles only its share. An object moves
     * between replicas only once the one that had it stopped reconciling it (docs/sharding.md).
     * The member Leases use the {@code operator.leader-election} durations.
     *
     * @param enabled whether the controllers are sharded; needs {@code operator.leader-election.enabled}
     * @param ringName the ring's name, a DNS label; default {@code spring.application.name} (made a
     *     DNS label), else {@code operator}
     * @param leaseNamespace the namespace of the member Leases; default the leader-election Lease's
     * @param shardId this replica's member id, a DNS label; default the {@code HOSTNAME} (the pod
     *     name) followed by random hex digits, new for every process. Leave it unset in a cluster:
     *     a restarted process must join as a new member
     * @param virtualNodes positions per member on the hash ring, 1 to 1000: more give a more even
     *     spread and a larger ring
     * @param controllers the names of the controllers to shard; empty (the default) for every
     *     {@code @Reconciler}. The others run on the leader only, as without sharding
     * @param resyncPeriod how often the leader goes over every sharded object even without a
     *     change; 0 for never
     * @param assignerWorkers objects the leader assigns at once, per sharded resource
     * @param arrivalTimeout how long a replica holds back the first reconcile of an object that
     *     moved in until the objects it owns are in its caches
     * @param orphanTtl how long the Lease of a dead member stays before the leader deletes it
     */
    public record Sharding(@DefaultValue("false") boolean enabled, @Nullable String ringName,
            @Nullable String leaseNamespace, @Nullable String shardId, @DefaultValue("100") int virtualNodes,
            @DefaultValue List<String> controllers, @DefaultValue("5m") Duration resyncPeriod,
            @DefaultValue("4") int assignerWorkers, @DefaultValue("10s") Duration arrivalTimeout,
            @DefaultValue("1m") Duration orphanTtl) {
    }

    /**
     * Before the informers start, the operator asks the API server for each permission its code
     * declares (a SelfSubjectAccessReview per verb, resource and namespace: its controllers' caches
     * and writes, {@code @Permission}s, Events, the leader Lease, sharding's Leases) and fails at
     * once, naming every missing rule as YAML, rather than at the cache-sync timeout. A server that
     * does not answer or refuses the credentials fails the start-up within {@code timeout}. Runs
     * when the start-up waits for the caches ({@code operator.informers.wait-for-sync-on-startup}).
     *
     * @param enabled whether the operator asks the API server for each permission it needs before its
     *     informers start, and fails at once naming every missing rule
     * @param timeout the deadline of the whole check, every request in it: a server that has not
     *     answered by then fails the start-up
     */
    public record PermissionCheck(@DefaultValue("true") boolean enabled, @DefaultValue("5s") Duration timeout) {
    }
}
