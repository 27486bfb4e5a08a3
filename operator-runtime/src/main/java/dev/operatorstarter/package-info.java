/**
 * Operator Starter runtime: a Java port of client-go's architecture, free of Spring Boot.
 *
 * <p>Map from concept to package:
 * <ul>
 *   <li>{@code dev.operatorstarter.client}: configuration from kubeconfig or in-cluster files,
 *       transport, the REST client, typed, dynamic and discovery clients.</li>
 *   <li>{@code dev.operatorstarter.cache}: shared informers (each a reflector and a delta FIFO
 *       feeding an indexer), the informer factory, listers, and the {@code ObjectReader} that
 *       reads from a cache or the API server.</li>
 *   <li>{@code dev.operatorstarter.workqueue}: rate-limited, delaying work queues.</li>
 *   <li>{@code dev.operatorstarter.controller}: the reconcile loop over a work queue.</li>
 *   <li>{@code dev.operatorstarter.leaderelection}: Lease-based leader election.</li>
 *   <li>{@code dev.operatorstarter.event}: the event recorder.</li>
 *   <li>{@code dev.operatorstarter.drain}: draining a node as {@code kubectl drain} does: cordon,
 *       then evictions that honour PodDisruptionBudgets, within a deadline.</li>
 *   <li>{@code dev.operatorstarter.time}: {@code TimeSource}, the one source of time every
 *       component takes as its {@code timeSource} option. Its fake, and fakes of a lister-watcher,
 *       a lease lock and a leadership term, are in {@code dev.operatorstarter.testing}, shipped as
 *       the {@code operator-runtime-testing} artifact (added with test scope).</li>
 *   <li>{@code dev.operatorstarter.manager}: the {@code Manager}, which runs informers, leader
 *       election, events and runnables in groups in order and stops them in reverse, and its
 *       controller builder {@code Manager.controller(T)}, the front door for controllers.</li>
 *   <li>{@code dev.operatorstarter.crd}: annotations that describe a custom resource class for the
 *       CRD generator (module {@code operator-crd-generator}): printer columns, defaults, CEL
 *       rules, list and map types. Annotations only; it uses nothing else.</li>
 *   <li>{@code dev.operatorstarter.webhook}: admission (validating and mutating handlers, JSON
 *       Patch) and conversion (converters between versions) webhooks as plain functions from a
 *       review to its answer; serving them is the starter's part.</li>
 *   <li>{@code dev.operatorstarter.sharding}: one controller's objects spread over the replicas
 *       of a ring (consistent hashing, the assignment labels, each replica's membership, the
 *       leader's assigner), behind the {@code Sharding} facade, a plug-in of the {@code Manager}. The
 *       starter wires it with {@code operator.sharding.enabled}
 *       ({@code OperatorShardingAutoConfiguration}).</li>
 *   <li>{@code dev.operatorstarter.internal}: machinery the packages share (JSON, PEM, backoff, the
 *       token bucket, duration checks, daemon thread factories, polling). <b>Not API</b>: public only so the
 *       packages can share it, and it may change in any release. No other module uses it.</li>
 * </ul>
 *
 * <p>The API is the public types of every package but {@code internal}, less a few listed with
 * their reason; {@code ApiSurfaceTest} keeps that list (docs/architecture/api.md) and
 * {@code ModuleBoundaryTest} keeps {@code internal} inside this module.
 *
 * <p>Dependency direction: {@code client} &larr; {@code cache} &larr; {@code controller} &larr;
 * {@code manager}; {@code controller} &rarr; {@code workqueue}, which uses nothing else;
 * {@code leaderelection}, {@code event} and {@code drain} use only {@code client}; every package may use
 * {@code time} and {@code internal}, which use nothing else but {@code internal} &rarr;
 * {@code time}; {@code crd} uses nothing else of ours; {@code webhook} uses only {@code time} and
 * {@code internal}; {@code manager} uses all of those but nothing above it; {@code sharding} is a
 * plug-in above {@code manager} (its extension points), and the only package that uses it. {@code ArchitectureTest} (a unit test) enforces it.
 */
package dev.operatorstarter;
