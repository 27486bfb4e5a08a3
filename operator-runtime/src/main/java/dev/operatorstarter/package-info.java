/**
 * Operator Starter runtime: a Java port of client-go's architecture, free of Spring Boot.
 *
 * <p>Map from concept to package (packages arrive with the issues that build them):
 * <ul>
 *   <li>{@code dev.operatorstarter.client}: configuration from kubeconfig or in-cluster files,
 *       transport, the REST client, typed, dynamic and discovery clients.</li>
 *   <li>{@code dev.operatorstarter.cache}: Reflector, DeltaFifo, Indexer, shared informers and
 *       listers.</li>
 *   <li>{@code dev.operatorstarter.workqueue}: rate-limited, delaying work queues.</li>
 *   <li>{@code dev.operatorstarter.controller}: the reconcile loop over a work queue.</li>
 *   <li>{@code dev.operatorstarter.leaderelection}: Lease-based leader election.</li>
 *   <li>{@code dev.operatorstarter.event}: the event recorder.</li>
 *   <li>{@code dev.operatorstarter.time}: {@code TimeSource}, the one source of time every
 *       component takes as its {@code timeSource} option. Its fake, and fakes of a lister-watcher
 *       and of a lease lock, are in {@code dev.operatorstarter.testing}, shipped as the
 *       {@code test-fixtures} artifact.</li>
 * </ul>
 *
 * <p>Dependency direction: {@code client} &larr; {@code cache} &larr; {@code controller};
 * {@code workqueue} depends on nothing; {@code leaderelection} and {@code event} depend only on
 * {@code client}; besides that, every package may use {@code time}, which depends on nothing.
 * Shared machinery lives in {@code internal} packages, which are not API.
 */
package dev.operatorstarter;
