package dev.operatorstarter.controller;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.operatorstarter.Uninterruptibly;
import dev.operatorstarter.cache.InformerOptions;
import dev.operatorstarter.cache.ReflectorOptions;
import dev.operatorstarter.cache.SharedIndexInformer;
import dev.operatorstarter.client.ResourceType;
import dev.operatorstarter.testing.FakeListerWatcher;
import dev.operatorstarter.workqueue.RateLimiter;
import dev.operatorstarter.workqueue.WorkQueueMetrics;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.Secret;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.lang.reflect.Field;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.slf4j.MDC;

/** The reconcile loop's contract, on an informer fed from memory. */
class ControllerTest {

    static ConfigMap configMap(String name, String version) {
        return new ConfigMapBuilder().withNewMetadata().withNamespace("ns").withName(name).withResourceVersion(version)
                .endMetadata().build();
    }

    private SharedIndexInformer<ConfigMap> informer;
    private Controller<ConfigMap> controller;
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

    private Controller<ConfigMap> start(List<ConfigMap> objects, ControllerOptions.Builder options,
            ReconcileHandler<ConfigMap> handler) throws InterruptedException {
        return start(objects, options, () -> true, handler);
    }

    private Controller<ConfigMap> start(List<ConfigMap> objects, ControllerOptions.Builder options,
            BooleanSupplier mayReconcile, ReconcileHandler<ConfigMap> handler) throws InterruptedException {
        informer = SharedIndexInformer.create("configmaps", FakeListerWatcher.listing(objects), ConfigMap.class,
                InformerOptions.builder().reflector(ReflectorOptions.builder().streamingList(false).build()).build());
        informer.start();
        controller = Controller.builder(options.metrics(ControllerMetrics.micrometer(registry)).build(),
                ResourceType.of(ConfigMap.class), informer).build(handler);
        controller.start(mayReconcile);
        return controller;
    }

    private static ControllerOptions.Builder fast(String name) {
        return ControllerOptions.builder(name)
                .rateLimiter(RateLimiter.exponential(Duration.ofMillis(1), Duration.ofMillis(20)));
    }

    @AfterEach
    void stop() throws InterruptedException {
        if (controller != null) {
            controller.stop(Duration.ofSeconds(5));
        }
        if (informer != null) {
            informer.stop();
        }
    }

    @Test
    void decoratorsWrapTheFilterAndTheHandlerTheLaterOutsideWithTheCacheAtHand() throws Exception {
        List<String> calls = new CopyOnWriteArrayList<>();
        ControllerDecorator<ConfigMap> skipping = new ControllerDecorator<>() {
            @Override
            public EventFilter<ConfigMap> filter(EventFilter<ConfigMap> filter) {
                return filter.and(new EventFilter<>() {
                    @Override
                    public boolean onAdd(ConfigMap object) {
                        return !object.getMetadata().getName().equals("skipped");
                    }
                });
            }

            @Override
            public ReconcileHandler<ConfigMap> handler(ReconcileHandler<ConfigMap> handler,
                    Function<ReconcileRequest, Optional<ConfigMap>> cache) {
                return request -> {
                    calls.add("inner " + request.name() + "@" + cache.apply(request).orElseThrow().getMetadata()
                            .getResourceVersion());
                    return handler.reconcile(request);
                };
            }
        };
        ControllerDecorator<ConfigMap> outer = new ControllerDecorator<>() {
            @Override
            public ReconcileHandler<ConfigMap> handler(ReconcileHandler<ConfigMap> handler,
                    Function<ReconcileRequest, Optional<ConfigMap>> cache) {
                return request -> {
                    calls.add("outer " + request.name());
                    return handler.reconcile(request);
                };
            }
        };
        informer = SharedIndexInformer.create("configmaps", FakeListerWatcher.listing(List.of(configMap("a", "7"),
                configMap("skipped", "1"), configMap("b", "3"))), ConfigMap.class,
                InformerOptions.builder().reflector(ReflectorOptions.builder().streamingList(false).build()).build());
        informer.start();
        controller = Controller.builder(fast("decorated").workers(1).build(), ResourceType.of(ConfigMap.class), informer)
                .decoratedBy(skipping).decoratedBy(outer).build(request -> {
                    calls.add("handler " + request.name());
                    return ReconcileResult.done();
                });
        controller.start(() -> true);

        // one worker, requests in the order added: "skipped" would come between a and b
        await().atMost(Duration.ofSeconds(10)).until(() -> calls.contains("handler b"));
        assertThat(calls).containsExactly("outer a", "inner a@7", "handler a", "outer b", "inner b@3", "handler b");
        assertThat(informer.indexer().list()).as("filtered, not uncached").hasSize(3);
    }

    @Test
    void theCacheADecoratorIsGivenReadsTheInformersWithoutTheControllerEscapingItsConstructor() throws Exception {
        AtomicReference<Function<ReconcileRequest, Optional<ConfigMap>>> given = new AtomicReference<>();
        ControllerDecorator<ConfigMap> capturing = new ControllerDecorator<>() {
            @Override
            public ReconcileHandler<ConfigMap> handler(ReconcileHandler<ConfigMap> handler,
                    Function<ReconcileRequest, Optional<ConfigMap>> cache) {
                given.set(cache); // called while the controller is being built
                return handler;
            }
        };
        informer = SharedIndexInformer.create("configmaps", FakeListerWatcher.listing(List.of(configMap("a", "7"))),
                ConfigMap.class, InformerOptions.builder().reflector(ReflectorOptions.builder().streamingList(false)
                        .build()).build());
        informer.start();
        controller = Controller.builder(fast("lookup").build(), ResourceType.of(ConfigMap.class), informer)
                .decoratedBy(capturing).build(request -> ReconcileResult.done());

        await().atMost(Duration.ofSeconds(10)).until(informer::hasSynced);
        assertThat(given.get().apply(ReconcileRequest.of(configMap("a", "7")))).get()
                .extracting(object -> object.getMetadata().getResourceVersion()).isEqualTo("7");
        for (Field field : given.get().getClass().getDeclaredFields()) {
            field.setAccessible(true);
            assertThat(field.get(given.get())).as("what the lookup holds").isNotInstanceOf(Controller.class);
        }
    }

    @Test
    void aFailingReconcileIsRetriedWithoutLimitUntilItSucceeds() throws Exception {
        AtomicInteger attempts = new AtomicInteger();
        start(List.of(configMap("a", "1")), fast("retries"), request -> {
            if (attempts.incrementAndGet() < 12) {
                throw new IllegalStateException("not yet");
            }
            return ReconcileResult.done();
        });
        await().until(() -> registry.get("controller.runtime.reconcile").tag("result", "success").counter().count() == 1);
        assertThat(attempts).hasValue(12);
        assertThat(registry.get("controller.runtime.reconcile.errors").counter().count()).isEqualTo(11);
        assertThat(registry.get("controller.runtime.reconcile").tag("result", "error").counter().count()).isEqualTo(11);
    }

    @Test
    void aTerminalErrorIsNotRetried() throws Exception {
        AtomicInteger attempts = new AtomicInteger();
        start(List.of(configMap("a", "1"), configMap("b", "1")), fast("terminal"), request -> {
            attempts.incrementAndGet();
            if (request.name().equals("a")) {
                throw new TerminalException("spec.size must be positive");
            }
            return ReconcileResult.done();
        });
        await().until(() -> registry.find("controller.runtime.terminal.reconcile.errors").counter() != null
                && attempts.get() == 2);
        await().during(Duration.ofMillis(200)).until(() -> attempts.get() == 2);
        assertThat(registry.get("controller.runtime.terminal.reconcile.errors").counter().count()).isEqualTo(1);
        assertThat(registry.get("controller.runtime.reconcile.errors").counter().count())
                .as("counted among all errors, as controller-runtime does").isEqualTo(1);
    }

    @Test
    void aTerminalErrorArrivingAsTheCauseOfAnotherExceptionIsNotRetried() throws Exception {
        AtomicInteger attempts = new AtomicInteger();
        start(List.of(configMap("a", "1"), configMap("b", "1")), fast("wrapped-terminal"), request -> {
            attempts.incrementAndGet();
            if (request.name().equals("a")) {
                return java.util.concurrent.CompletableFuture.<ReconcileResult>supplyAsync(() -> {
                    throw new TerminalException("spec.size must be positive");
                }).join(); // throws a CompletionException whose cause is the TerminalException
            }
            return ReconcileResult.done();
        });
        await().until(() -> registry.find("controller.runtime.terminal.reconcile.errors").counter() != null
                && attempts.get() == 2);
        await().during(Duration.ofMillis(200)).until(() -> attempts.get() == 2);
        assertThat(registry.get("controller.runtime.terminal.reconcile.errors").counter().count()).isEqualTo(1);
        assertThat(registry.get("controller.runtime.reconcile.errors").counter().count()).isEqualTo(1);
    }

    @Test
    void anErrorSuchAsAStackOverflowDoesNotKillTheWorker() throws Exception {
        Set<String> done = ConcurrentHashMap.newKeySet();
        AtomicInteger overflows = new AtomicInteger();
        start(List.of(configMap("a", "1"), configMap("b", "1")), fast("panics"), request -> {
            if (request.name().equals("a") && overflows.getAndIncrement() == 0) {
                throw new StackOverflowError("deep");
            }
            done.add(request.name());
            return ReconcileResult.done();
        });
        await().until(() -> done.equals(Set.of("a", "b")));
        assertThat(registry.get("controller.runtime.reconcile.panics").counter().count()).isEqualTo(1);
    }

    @Test
    void requeueAfterReconcilesAgainAfterTheDelay() throws Exception {
        List<Long> times = new CopyOnWriteArrayList<>();
        start(List.of(configMap("a", "1")), fast("requeue-after"), request -> {
            times.add(System.nanoTime());
            return times.size() < 3 ? ReconcileResult.requeueAfter(Duration.ofMillis(200)) : ReconcileResult.done();
        });
        await().until(() -> times.size() == 3);
        assertThat(times.get(1) - times.get(0)).isGreaterThanOrEqualTo(Duration.ofMillis(200).toNanos());
        assertThat(times.get(2) - times.get(1)).isGreaterThanOrEqualTo(Duration.ofMillis(200).toNanos());
        assertThat(registry.get("controller.runtime.reconcile").tag("result", "requeue_after").counter().count())
                .isEqualTo(2);
    }

    @Test
    void requeueReconcilesAgainThroughTheRateLimiter() throws Exception {
        AtomicInteger calls = new AtomicInteger();
        start(List.of(configMap("a", "1")), fast("requeue"), request -> calls.incrementAndGet() < 3
                ? ReconcileResult.requeue() : ReconcileResult.done());
        await().until(() -> calls.get() == 3);
        assertThat(registry.get("controller.runtime.reconcile").tag("result", "requeue").counter().count()).isEqualTo(2);
    }

    @Test
    void oneRequestIsNeverReconciledByTwoWorkersAtOnce() throws Exception {
        Map<String, AtomicInteger> running = new ConcurrentHashMap<>();
        AtomicInteger overlaps = new AtomicInteger();
        AtomicInteger total = new AtomicInteger();
        start(List.of(configMap("a", "1"), configMap("b", "1")), fast("exclusive").workers(4), request -> {
            AtomicInteger count = running.computeIfAbsent(request.name(), k -> new AtomicInteger());
            if (count.incrementAndGet() > 1) {
                overlaps.incrementAndGet();
            }
            Thread.sleep(2);
            count.decrementAndGet();
            return total.incrementAndGet() < 200 ? ReconcileResult.requeue() : ReconcileResult.done();
        });
        for (int i = 0; i < 200; i++) {
            controller.enqueue(new ReconcileRequest("ns", i % 2 == 0 ? "a" : "b"));
        }
        await().until(() -> total.get() >= 200);
        assertThat(overlaps).hasValue(0);
        assertThat(registry.get("controller.runtime.max.concurrent.reconciles").gauge().value()).isEqualTo(4);
    }

    @Test
    void eachReconcileRunsWithItsLoggingContext() throws Exception {
        List<Map<String, String>> contexts = new CopyOnWriteArrayList<>();
        start(List.of(configMap("a", "1")), fast("logging"), request -> {
            contexts.add(MDC.getCopyOfContextMap());
            return ReconcileResult.done();
        });
        await().until(() -> contexts.size() == 1);
        assertThat(contexts.get(0)).containsEntry("controller", "logging").containsEntry("namespace", "ns")
                .containsEntry("name", "a").containsKey("reconcileID");
    }

    @Test
    void aReconcileThatOutlivesItsTimeoutIsInterruptedAndRetried() throws Exception {
        AtomicInteger attempts = new AtomicInteger();
        start(List.of(configMap("a", "1")), fast("timeout").reconcileTimeout(Duration.ofMillis(100)), request -> {
            if (attempts.incrementAndGet() == 1) {
                Thread.sleep(Duration.ofMinutes(5).toMillis()); // interrupted by the timeout
            }
            return ReconcileResult.done();
        });
        await().atMost(Duration.ofSeconds(10)).until(() -> attempts.get() == 2);
        await().until(() -> registry.get("controller.runtime.reconcile").tag("result", "success").counter().count() == 1);
    }

    @Test
    void aReconcileThatLeavesItsInterruptFlagSetDoesNotStopTheWorker() throws Exception {
        List<String> reconciled = new CopyOnWriteArrayList<>();
        List<String> interruptedOnEntry = new CopyOnWriteArrayList<>();
        start(List.of(configMap("a", "1")), fast("stray-interrupt"), request -> {
            reconciled.add(request.name());
            if (Thread.currentThread().isInterrupted()) {
                interruptedOnEntry.add(request.name());
            }
            if (request.name().equals("a")) {
                Thread.currentThread().interrupt(); // as code that catches InterruptedException and restores the flag
            }
            return ReconcileResult.done();
        });
        await().until(() -> reconciled.equals(List.of("a")));
        controller.enqueue(new ReconcileRequest("ns", "b"));
        await().until(() -> reconciled.equals(List.of("a", "b")));
        assertThat(interruptedOnEntry).as("the flag does not carry over into the next reconcile").isEmpty();
        assertThat(controller.isRunning()).isTrue();
    }

    @Test
    void aTimeoutThatFiresAsTheReconcileReturnsDoesNotInterruptTheNextReconcile() throws Exception {
        CountDownLatch timerFiring = new CountDownLatch(1);
        CountDownLatch nextReconcileStarted = new CountDownLatch(1);
        CountDownLatch timerDone = new CountDownLatch(1);
        // The worker's interrupt() runs on the timer's thread once the timer has decided to
        // interrupt. Holding it there plays the race deterministically: the timer delivers its
        // interrupt only once the worker has moved on to its next reconcile, or once the worker is
        // held back (BLOCKED) from leaving the timed-out reconcile until the interrupt is delivered.
        ThreadFactory threads = task -> {
            Thread thread = new Thread(task) {
                private final AtomicBoolean held = new AtomicBoolean();

                @Override
                public void interrupt() {
                    if (held.compareAndSet(false, true)) {
                        timerFiring.countDown();
                        await().pollInterval(Duration.ofMillis(1)).until(() -> getState() == State.BLOCKED
                                || nextReconcileStarted.getCount() == 0);
                        super.interrupt();
                        timerDone.countDown();
                        return;
                    }
                    super.interrupt();
                }
            };
            thread.setDaemon(true);
            return thread;
        };
        AtomicInteger attempts = new AtomicInteger();
        List<String> reconciled = new CopyOnWriteArrayList<>();
        List<String> interrupted = new CopyOnWriteArrayList<>();
        start(List.of(configMap("a", "1")), fast("timeout-race").threadFactory(threads)
                .reconcileTimeout(Duration.ofMillis(200)), request -> {
                    if (attempts.incrementAndGet() == 1) {
                        Uninterruptibly.await(timerFiring);
                        return ReconcileResult.done(); // just as the timer fires: counted as timed out, retried
                    }
                    nextReconcileStarted.countDown();
                    Uninterruptibly.await(timerDone);
                    if (Thread.currentThread().isInterrupted()) {
                        interrupted.add(request.name());
                    }
                    reconciled.add(request.name());
                    return ReconcileResult.done();
                });
        await().until(() -> reconciled.equals(List.of("a")));
        assertThat(interrupted).as("reconciles hit by the earlier reconcile's timeout").isEmpty();
        controller.enqueue(new ReconcileRequest("ns", "b"));
        await().until(() -> reconciled.equals(List.of("a", "b")));
        assertThat(registry.get("controller.runtime.reconcile").tag("result", "error").counter().count()).isEqualTo(1);
    }

    @Test
    void aStoppedControllerStartsAgainAndReconcilesEverythingOnceMore() throws Exception {
        List<String> seen = new CopyOnWriteArrayList<>();
        start(List.of(configMap("a", "1"), configMap("b", "1")), fast("restart"), request -> {
            seen.add(request.name());
            return ReconcileResult.done();
        });
        await().until(() -> seen.size() == 2);
        assertThat(controller.stop(Duration.ofSeconds(5))).isTrue();
        assertThat(controller.isRunning()).isFalse();
        controller.start();
        await().until(() -> seen.size() == 4);
    }

    @Test
    void aRestartedControllerWaitsForAReconcileTheLastRunAbandonedBeforeReconcilingThatKeyAgain() throws Exception {
        CountDownLatch stuck = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        AtomicInteger attemptsOfA = new AtomicInteger();
        AtomicInteger runningA = new AtomicInteger();
        AtomicInteger overlaps = new AtomicInteger();
        List<String> reconciled = new CopyOnWriteArrayList<>();
        start(List.of(configMap("a", "1")), fast("abandoned").queueMetrics(WorkQueueMetrics.micrometer(registry)),
                request -> {
                    if (request.name().equals("a")) {
                        if (runningA.incrementAndGet() > 1) {
                            overlaps.incrementAndGet();
                        }
                        try {
                            if (attemptsOfA.incrementAndGet() == 1) {
                                stuck.countDown();
                                Uninterruptibly.await(release); // as a read that ignores interrupts
                            }
                        } finally {
                            runningA.decrementAndGet();
                        }
                    }
                    reconciled.add(request.name());
                    return ReconcileResult.done();
                });
        stuck.await();
        assertThat(controller.stop(Duration.ZERO)).as("the stuck reconcile was abandoned").isFalse();
        controller.start(); // the cache's replay queues a again
        await().until(() -> registry.get("workqueue.adds").tag("name", "abandoned").counter().count() >= 3
                || attemptsOfA.get() > 1);
        assertThat(attemptsOfA).as("a was met again and put back, not reconciled beside the abandoned reconcile")
                .hasValue(1);

        controller.enqueue(new ReconcileRequest("ns", "b"));
        await().until(() -> reconciled.contains("b"));
        assertThat(attemptsOfA).as("other keys go on meanwhile").hasValue(1);

        release.countDown();
        await().until(() -> reconciled.equals(List.of("b", "a", "a")));
        assertThat(overlaps).hasValue(0);
    }

    @Test
    void aWriteToASameNamedObjectOfAnotherKindDoesNotHoldBackTheNextReconcile() throws Exception {
        AtomicInteger attempts = new AtomicInteger();
        start(List.of(configMap("a", "1")), fast("other-kind").readYourWritesTimeout(Duration.ofMinutes(1)), request -> {
            if (attempts.incrementAndGet() == 1) {
                controller.tracked(WriteTrackerTest.echoing(ResourceType.of(Secret.class))).inNamespace("ns")
                        .create(WriteTrackerTest.secret("a", "100")); // owned by ConfigMap a, say
                return ReconcileResult.requeue();
            }
            return ReconcileResult.done();
        });
        await().until(() -> attempts.get() == 2);
    }

    @Test
    void aControllerWhoseGateClosesReconcilesNothingMoreUntilTheGateOpensAgain() throws Exception {
        AtomicBoolean open = new AtomicBoolean(true);
        AtomicInteger checks = new AtomicInteger();
        CountDownLatch firstReconcile = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        List<String> reconciled = new CopyOnWriteArrayList<>();
        start(List.of(configMap("a", "1")), fast("gated"), () -> {
            checks.incrementAndGet();
            return open.get();
        }, request -> {
            reconciled.add(request.name());
            firstReconcile.countDown();
            release.await();
            return ReconcileResult.done();
        });
        firstReconcile.await();
        controller.enqueue(new ReconcileRequest("ns", "b")); // taken from the queue only once a is done
        open.set(false); // the term ends while a is being reconciled
        release.countDown();
        int checksSoFar = checks.get();
        controller.enqueue(new ReconcileRequest("ns", "c"));
        controller.enqueue(new ReconcileRequest("ns", "a"));
        await().until(() -> checks.get() >= checksSoFar + 6 || reconciled.size() > 1);
        assertThat(reconciled).as("each request was met at least twice and put back").containsExactly("a");

        open.set(true);
        await().until(() -> reconciled.size() == 4);
        assertThat(reconciled).containsExactlyInAnyOrder("a", "a", "b", "c");
    }

    @Test
    void stopLetsTheReconcileInFlightFinishAndDropsWhatIsStillQueued() throws Exception {
        java.util.concurrent.CountDownLatch started = new java.util.concurrent.CountDownLatch(1);
        java.util.concurrent.CountDownLatch release = new java.util.concurrent.CountDownLatch(1);
        List<String> reconciled = new CopyOnWriteArrayList<>();
        start(List.of(), fast("stopping"), request -> {
            reconciled.add(request.name());
            started.countDown();
            release.await();
            return ReconcileResult.done();
        });
        for (int i = 0; i < 20; i++) {
            controller.enqueue(new ReconcileRequest("ns", "item-" + i));
        }
        started.await();
        java.util.concurrent.atomic.AtomicBoolean drained = new java.util.concurrent.atomic.AtomicBoolean();
        Thread stopper = new Thread(() -> {
            try {
                drained.set(controller.stop(Duration.ofSeconds(10)));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        stopper.start();
        await().until(() -> stopper.getState() == Thread.State.TIMED_WAITING);
        release.countDown();
        stopper.join(15_000);
        assertThat(drained).isTrue();
        assertThat(reconciled).containsExactly("item-0");
    }
}
