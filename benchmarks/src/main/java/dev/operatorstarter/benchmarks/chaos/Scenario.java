package dev.operatorstarter.benchmarks.chaos;

import dev.operatorstarter.test.faults.Fault;
import dev.operatorstarter.test.faults.FaultProxy;
import dev.operatorstarter.test.faults.Injection;
import dev.operatorstarter.test.faults.RequestMatcher;
import dev.operatorstarter.test.local.LocalApiServer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

/**
 * One fault an informer chaos trial plays, while the churn writes: {@link #play} starts it, keeps
 * it for the fault time, ends it and returns. The trial's clock for recovery starts when it
 * returns.
 *
 * @param name the row's name in the report
 * @param description what it does, for the report
 * @param play the fault
 */
record Scenario(String name, String description, Play play) {

    /** Plays a fault on the targets; returns once it has ended. */
    @FunctionalInterface
    interface Play {
        void on(Targets targets) throws Exception;
    }

    /**
     * What a fault acts on: the API server (the run's own), every subject's proxy at once, and the
     * collection the subjects inform on. Remembers the injections made through it, so a trial can
     * tell how many of each subject's requests a fault took.
     */
    static final class Targets {
        private final LocalApiServer server;
        private final List<FaultProxy> proxies;
        private final String namespace;
        private final Duration faultTime;
        private final Map<FaultProxy, List<Injection>> injections = new ConcurrentHashMap<>();

        /** @param faultTime how long a fault lasts */
        Targets(LocalApiServer server, List<FaultProxy> proxies, String namespace, Duration faultTime) {
            this.server = server;
            this.proxies = List.copyOf(proxies);
            this.namespace = namespace;
            this.faultTime = faultTime;
        }

        LocalApiServer server() {
            return server;
        }

        void eachProxy(Consumer<FaultProxy> action) {
            proxies.forEach(action);
        }

        /** Injects {@code fault} into every proxy; returns the injections. */
        List<Injection> inject(RequestMatcher requests, Fault fault) {
            List<Injection> made = new ArrayList<>();
            for (FaultProxy proxy : proxies) {
                Injection injection = proxy.inject(requests, fault);
                injections.computeIfAbsent(proxy, p -> new CopyOnWriteArrayList<>()).add(injection);
                made.add(injection);
            }
            return made;
        }

        /** Forgets the injections made so far. */
        void forgetInjections() {
            injections.clear();
        }

        /** How many of {@code proxy}'s requests the injections made since {@link #forgetInjections()} took. */
        long faulted(FaultProxy proxy) {
            return injections.getOrDefault(proxy, List.of()).stream().mapToLong(Injection::matched).sum();
        }

        /** The collection's path, read with GET: lists, and watches (with {@code watch=true}). */
        RequestMatcher collection() {
            return RequestMatcher.pathMatching("/api/v1/namespaces/" + namespace + "/configmaps").method("GET");
        }

        void sleep(Duration duration) throws InterruptedException {
            Thread.sleep(duration.toMillis());
        }

        void holdTheFault() throws InterruptedException {
            sleep(faultTime);
        }
    }

    /** Every scenario, in the order the runs play them. */
    static List<Scenario> all() {
        return List.of(restart(), compaction(), hungWatch(), cutStreams(), tooManyRequestsOnLists(),
                unavailableOnLists(), malformedWatches(), lostConnections());
    }

    /** kube-apiserver stopped (SIGTERM) and started again; etcd keeps running. */
    static Scenario restart() {
        return new Scenario("API server restart", "kube-apiserver stopped with SIGTERM and started again (etcd keeps "
                + "running); the fault ends when it serves again", targets -> targets.server().restartApiServer());
    }

    /**
     * The subjects cut off (connections reset) for the fault time while the churn writes, etcd
     * compacted, the subjects let back: their watches resume from a compacted version, and with the
     * watch cache off that is a 410 at once, so they must relist.
     */
    static Scenario compaction() {
        return new Scenario("compaction (410 Gone)", "subjects' connections reset for the fault time while the churn "
                + "writes, etcd compacted, connections allowed again: watches resume from a compacted version",
                targets -> {
                    targets.eachProxy(proxy -> proxy.dropAll(true));
                    targets.holdTheFault();
                    targets.server().compactEtcd();
                    targets.eachProxy(proxy -> proxy.dropAll(false));
                });
    }

    /**
     * The network stalls without closing anything (half-open) for the fault time: open watches go
     * silent, new connections get no answer. Then the stalled connections are reset, as a peer that
     * lost their state answers when the network comes back, and new ones are served.
     */
    static Scenario hungWatch() {
        return new Scenario("hung watch (half-open, then reset)", "every connection stalls for the fault time (open "
                + "watches silent, new connections unanswered); then the stalled connections are reset and new ones "
                + "served", targets -> {
                    targets.eachProxy(proxy -> proxy.halfOpen(true));
                    try {
                        targets.holdTheFault();
                        targets.eachProxy(FaultProxy::cutConnections);
                    } finally {
                        targets.eachProxy(proxy -> proxy.halfOpen(false));
                    }
                });
    }

    /** Open watches cut, and every new one cut in the middle of its third event, for the fault time. */
    static Scenario cutStreams() {
        return new Scenario("cut streams", "open connections cut, then for the fault time every new watch cut in the "
                + "middle of its third event (connection closed without close_notify)", targets -> during(targets,
                        targets.collection().watchesOnly(), Fault.cutAfterEvents(2)));
    }

    /**
     * A storm of 429s with Retry-After 1 s on every list, for the fault time plus 1 s, and a relist
     * forced at its start (connections reset for half a second while the churn writes, etcd
     * compacted, connections allowed again).
     */
    static Scenario tooManyRequestsOnLists() {
        return new Scenario("429 storm on lists", "every list (paginated, or a watch streaming the initial state) "
                + "answered 429 with Retry-After: 1 for the fault time plus 1 s; at its start, connections reset for "
                + "0.5 s while the churn writes and etcd compacted, forcing a relist", targets -> stormOnRelist(targets, Fault.tooManyRequests(Duration.ofSeconds(1))));
    }

    /** As {@link #tooManyRequestsOnLists()}, with 503 Service Unavailable. */
    static Scenario unavailableOnLists() {
        return new Scenario("503 storm on lists", "as the 429 storm, with 503 Service Unavailable (no Retry-After)",
                targets -> stormOnRelist(targets, Fault.serviceUnavailable()));
    }

    /** Open connections cut, and every new watch's third event replaced by a line that is not JSON, for the fault time. */
    static Scenario malformedWatches() {
        return new Scenario("malformed watch events", "open connections cut, then for the fault time every new watch's third "
                + "event replaced by a line that starts like JSON and is not", targets -> during(targets, targets.collection().watchesOnly(),
                        Fault.malformedAfterEvents(2)));
    }

    /**
     * Every connection open now lost for good (see {@link FaultProxy#loseConnections()}): an open
     * watch goes silent while the server goes on writing to it, and nothing ever closes it; new
     * connections are served. The fault ends at once: only a client that notices the silence
     * reconnects. The failed trials' subjects are restarted, which ends their lost connections.
     */
    static Scenario lostConnections() {
        return new Scenario("lost connections (stall detection)", "every connection open now lost for good (no FIN, no "
                + "reset, nothing forwarded either way) while the server goes on; new connections served. Only a "
                + "client that notices the silence reconnects (ours here with a stall timeout of "
                + ChaosSubject.OURS_STALL_TIMEOUT.toSeconds() + " s; its default is 3 min)",
                targets -> targets.eachProxy(FaultProxy::loseConnections));
    }

    /** The fault for new requests, and the open connections cut so that the watches are made again under it. */
    private static void during(Targets targets, RequestMatcher requests, Fault fault) throws InterruptedException {
        List<Injection> injections = targets.inject(requests, fault);
        try {
            targets.eachProxy(FaultProxy::cutConnections);
            targets.holdTheFault();
        } finally {
            injections.forEach(Injection::remove);
        }
    }

    private static void stormOnRelist(Targets targets, Fault fault) throws InterruptedException {
        List<Injection> storm = new ArrayList<>(targets.inject(targets.collection().excludingWatches(), fault));
        storm.addAll(targets.inject(targets.collection().watchesOnly().queryParameter("sendInitialEvents", "true"), fault));
        try {
            targets.eachProxy(proxy -> proxy.dropAll(true));
            try {
                targets.sleep(Duration.ofMillis(500));
                targets.server().compactEtcd();
            } finally {
                targets.eachProxy(proxy -> proxy.dropAll(false));
            }
            targets.holdTheFault();
            targets.sleep(Duration.ofSeconds(1));
        } finally {
            storm.forEach(Injection::remove);
        }
    }
}
