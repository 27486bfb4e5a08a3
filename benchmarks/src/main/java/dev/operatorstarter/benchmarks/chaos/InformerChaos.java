package dev.operatorstarter.benchmarks.chaos;

import dev.operatorstarter.benchmarks.Subject;
import dev.operatorstarter.client.KubernetesClient;
import dev.operatorstarter.client.ResourceClient;
import dev.operatorstarter.client.config.KubeconfigLoader;
import dev.operatorstarter.client.rest.ClientOptions;
import dev.operatorstarter.test.ServiceAccounts;
import dev.operatorstarter.test.local.LocalApiServer;
import dev.operatorstarter.test.local.LocalApiServerOptions;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBindingBuilder;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Informers under faults, as repeated trials, ours beside the two Java peers: the driver of the
 * informer chaos runs ({@code docs/reliability/informers.md}).
 *
 * <p>{@link #start} starts an API server of its own with the watch cache off (so a watch from a
 * compacted version gets 410 Gone at once, from etcd), and every subject in a JVM of its own
 * ({@link ChaosSubject}) informing on the same namespace through a {@link dev.operatorstarter.test.faults.FaultProxy}
 * of its own, authenticated as the same cluster-admin service account; then a {@link Churn}
 * writes to the namespace without pause, straight to the server.
 *
 * <p>A trial ({@link #run}): wait until every subject delivers a current change; play the
 * scenario's fault on all subjects at once; note the first change written after the fault ended
 * and wait for each subject's first event carrying it (or a later one); stop the churn and wait
 * until each subject's cache equals a fresh list (names and resourceVersions) and every name the
 * server no longer has was last delivered as a delete; resume the churn. The subjects live for the
 * whole run, so a client whose backoff outlives the gap between trials (a few seconds) carries it
 * into the next trial, as it would under repeated faults. A subject that fails a trial is
 * restarted (a fresh JVM, synced) before the next one, so one failure does not fail the rest. A
 * subject with no event after the fault within the recovery timeout has failed: its convergence
 * is not waited for. A subject that failed {@value #LEAVE_OUT_AFTER} trials of a scenario in a row
 * is left out of that scenario's remaining trials (the report says so), which bounds the run's time
 * when a peer never recovers from a fault.
 */
public final class InformerChaos implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(InformerChaos.class);
    private static final String NAMESPACE = "chaos";
    private static final Duration POLL = Duration.ofMillis(50);
    static final int LEAVE_OUT_AFTER = 3;

    private final ChaosOptions options;
    private final LocalApiServer server;
    private final KubernetesClient admin;
    private final KubernetesClient writer;
    private final Churn churn;
    private final List<SubjectProcess> subjects;
    private final Scenario.Targets targets;
    private final ChaosReport report;

    private InformerChaos(ChaosOptions options, LocalApiServer server, KubernetesClient admin, KubernetesClient writer,
            Churn churn, List<SubjectProcess> subjects) {
        this.options = options;
        this.server = server;
        this.admin = admin;
        this.writer = writer;
        this.churn = churn;
        this.subjects = subjects;
        this.targets = new Scenario.Targets(server, subjects.stream().map(SubjectProcess::proxy).toList(), NAMESPACE,
                options.faultTime());
        this.report = new ChaosReport(options.recoveryTimeout(), options.convergeTimeout());
    }

    /** Starts the API server, the subjects (synced) and the churn. */
    static InformerChaos start(ChaosOptions options) throws IOException, InterruptedException {
        Files.createDirectories(options.directory());
        LocalApiServer server = LocalApiServer.start(LocalApiServerOptions.builder().apiServerArg("--watch-cache=false")
                .build());
        List<SubjectProcess> subjects = new ArrayList<>();
        KubernetesClient admin = null;
        KubernetesClient writer = null;
        try {
            admin = KubernetesClient.create(KubeconfigLoader.load(server.connection().kubeconfig(), null));
            // the churn's own client: one attempt per write, never longer than a few seconds
            writer = KubernetesClient.create(KubeconfigLoader.load(server.connection().kubeconfig(), null),
                    ClientOptions.builder().maxRetries(0).requestTimeout(Duration.ofSeconds(3)).build());
            admin.coreV1().namespaces().create(new NamespaceBuilder().withNewMetadata().withName(NAMESPACE).endMetadata()
                    .build());
            admin.rbacV1().clusterRoleBindings().create(new ClusterRoleBindingBuilder().withNewMetadata()
                    .withName("informer-chaos").endMetadata().withNewRoleRef().withApiGroup("rbac.authorization.k8s.io")
                    .withKind("ClusterRole").withName("cluster-admin").endRoleRef().addNewSubject()
                    .withKind("ServiceAccount").withName("informer-chaos").withNamespace("default").endSubject().build());
            String token = ServiceAccounts.connectAs(server.connection(), "default", "informer-chaos",
                    Duration.ofHours(6), options.directory().resolve("token-kubeconfig")).bearerToken();
            Churn churn = new Churn(writer.coreV1().configMaps().inNamespace(NAMESPACE), options.keys(),
                    options.writesPerSecond(), 15);
            for (Subject subject : options.subjects()) {
                subjects.add(SubjectProcess.start(subject, server.connection(), token, NAMESPACE, options.directory()));
            }
            for (SubjectProcess subject : subjects) {
                subject.awaitSynced(Duration.ofMinutes(2));
            }
            churn.start();
            log.info("informer chaos: {} synced, churn started ({} keys, {} writes/s)", options.subjects(),
                    options.keys(), options.writesPerSecond());
            return new InformerChaos(options, server, admin, writer, churn, subjects);
        } catch (IOException | InterruptedException | RuntimeException e) {
            subjects.forEach(SubjectProcess::close);
            if (writer != null) {
                writer.close();
            }
            if (admin != null) {
                admin.close();
            }
            server.close();
            throw e;
        }
    }

    ChaosOptions options() {
        return options;
    }

    /** Runs the scenario's trials; returns every subject's result of every trial (and keeps them for the report). */
    List<TrialResult> run(Scenario scenario) throws Exception {
        List<TrialResult> results = new ArrayList<>();
        Map<SubjectProcess, Integer> failedInARow = new HashMap<>();
        for (int trial = 1; trial <= options.trials(); trial++) {
            List<SubjectProcess> measured = subjects.stream()
                    .filter(subject -> failedInARow.getOrDefault(subject, 0) < LEAVE_OUT_AFTER).toList();
            List<TrialResult> trialResults = trial(scenario, trial, measured);
            for (int i = 0; i < measured.size(); i++) {
                TrialResult result = trialResults.get(i);
                SubjectProcess subject = measured.get(i);
                log.info("{}: {}", scenario.name(), result.summary());
                int failures = result.passed() ? 0 : failedInARow.getOrDefault(subject, 0) + 1;
                failedInARow.put(subject, failures);
                if (failures == LEAVE_OUT_AFTER) {
                    log.info("{}: {} left out of the remaining trials after {} failures in a row", scenario.name(),
                            subject.subject(), LEAVE_OUT_AFTER);
                }
            }
            results.addAll(trialResults);
        }
        report.add(scenario, results, subjects.stream()
                .filter(subject -> failedInARow.getOrDefault(subject, 0) >= LEAVE_OUT_AFTER)
                .map(SubjectProcess::subject).collect(Collectors.toSet()));
        return results;
    }

    private List<TrialResult> trial(Scenario scenario, int trial, List<SubjectProcess> subjects) throws Exception {
        churn.resume();
        awaitCurrent(System.currentTimeMillis(), subjects);
        Map<SubjectProcess, Long> listsBefore = new HashMap<>();
        subjects.forEach(subject -> listsBefore.put(subject, subject.lists()));
        long started = System.currentTimeMillis();
        targets.forgetInjections();

        scenario.play().on(targets);
        long faultEnded = System.currentTimeMillis();

        Map<SubjectProcess, OptionalLong> recoveries = awaitFirstEventAfter(faultEnded, subjects);
        churn.pause();
        long stopped = System.currentTimeMillis();
        Map<SubjectProcess, Long> converged = new HashMap<>();
        Map<SubjectProcess, List<String>> differences = new HashMap<>();
        Map<SubjectProcess, List<String>> undelivered = new HashMap<>();
        long deadline = stopped + options.convergeTimeout().toMillis();
        do {
            Map<String, Long> listed = serverState();
            for (SubjectProcess subject : subjects) {
                if (converged.containsKey(subject) || gaveUp(subject, recoveries)) {
                    continue;
                }
                differences.put(subject, CacheCheck.differences(subject.snapshot(Duration.ofSeconds(10)), listed));
                undelivered.put(subject, CacheCheck.undeliveredDeletions(subject.events().refresh().lastByName(),
                        listed.keySet()));
                if (differences.get(subject).isEmpty() && undelivered.get(subject).isEmpty()) {
                    converged.put(subject, System.currentTimeMillis() - stopped);
                }
            }
            if (subjects.stream().allMatch(subject -> converged.containsKey(subject) || gaveUp(subject, recoveries))) {
                break;
            }
            Thread.sleep(POLL.toMillis() * 2);
        } while (System.currentTimeMillis() < deadline);
        long ended = System.currentTimeMillis();
        churn.resume();

        List<TrialResult> results = new ArrayList<>();
        for (SubjectProcess subject : subjects) {
            boolean ok = converged.containsKey(subject);
            List<String> different = new ArrayList<>(differences.getOrDefault(subject, List.of()));
            if (recoveries.get(subject).isEmpty() && !differences.containsKey(subject)) {
                different.add("no event after the fault within " + options.recoveryTimeout().toSeconds() + " s");
            }
            subject.stopped().ifPresent(reason -> different.add(0, "the informer stopped by itself: " + reason));
            results.add(new TrialResult(subject.subject(), trial, ok ? List.of() : different,
                    ok ? List.of() : undelivered.getOrDefault(subject, List.of()), recoveries.get(subject),
                    ok ? OptionalLong.of(converged.get(subject)) : OptionalLong.empty(),
                    subject.lists() - listsBefore.get(subject), targets.faulted(subject.proxy()),
                    subject.events().tombstonesBetween(started, ended)));
        }
        for (int i = 0; i < subjects.size(); i++) {
            if (!results.get(i).passed()) {
                log.info("{}: restarting {} after its failed trial", scenario.name(), subjects.get(i).subject());
                subjects.get(i).restart(Duration.ofMinutes(2));
            }
        }
        return results;
    }

    /** Stopped by itself, or delivered nothing after the fault within the recovery timeout: not waited for. */
    private static boolean gaveUp(SubjectProcess subject, Map<SubjectProcess, OptionalLong> recoveries) {
        return subject.stopped().isPresent() || recoveries.get(subject).isEmpty();
    }

    /** Waits until every subject has delivered a change written at or after {@code millis}, for up to the recovery timeout. */
    private void awaitCurrent(long millis, List<SubjectProcess> subjects) throws InterruptedException {
        OptionalLong version = awaitWriteAfter(millis);
        long deadline = System.currentTimeMillis() + options.recoveryTimeout().toMillis();
        for (SubjectProcess subject : subjects) {
            while (version.isPresent() && subject.stopped().isEmpty()
                    && subject.events().refresh().firstAtOrAfter(version.getAsLong(), millis).isEmpty()
                    && System.currentTimeMillis() < deadline) {
                Thread.sleep(POLL.toMillis());
            }
        }
    }

    /** The first change written at or after {@code millis}; empty if none succeeded within the recovery timeout. */
    private OptionalLong awaitWriteAfter(long millis) throws InterruptedException {
        long deadline = System.currentTimeMillis() + options.recoveryTimeout().toMillis();
        OptionalLong version = churn.firstWriteStartedAtOrAfter(millis);
        while (version.isEmpty() && System.currentTimeMillis() < deadline) {
            Thread.sleep(POLL.toMillis());
            version = churn.firstWriteStartedAtOrAfter(millis);
        }
        return version;
    }

    /** Each subject's time from {@code faultEnded} to its first event carrying a change written after it. */
    private Map<SubjectProcess, OptionalLong> awaitFirstEventAfter(long faultEnded, List<SubjectProcess> subjects)
            throws InterruptedException {
        Map<SubjectProcess, OptionalLong> recoveries = new LinkedHashMap<>();
        OptionalLong version = awaitWriteAfter(faultEnded);
        long deadline = faultEnded + options.recoveryTimeout().toMillis();
        while (true) {
            for (SubjectProcess subject : subjects) {
                if (!recoveries.containsKey(subject) && subject.stopped().isPresent()) {
                    recoveries.put(subject, OptionalLong.empty());
                } else if (!recoveries.containsKey(subject) && version.isPresent()) {
                    subject.events().refresh().firstAtOrAfter(version.getAsLong(), faultEnded).ifPresent(event ->
                            recoveries.put(subject, OptionalLong.of(event.epochMillis() - faultEnded)));
                }
            }
            if (recoveries.size() == subjects.size() || version.isEmpty() || System.currentTimeMillis() >= deadline) {
                break;
            }
            Thread.sleep(POLL.toMillis());
        }
        subjects.forEach(subject -> recoveries.putIfAbsent(subject, OptionalLong.empty()));
        return recoveries;
    }

    /** A fresh list of the namespace: name to resourceVersion. */
    private Map<String, Long> serverState() {
        ResourceClient<ConfigMap> configMaps = admin.coreV1().configMaps().inNamespace(NAMESPACE);
        return configMaps.list().items().stream().collect(Collectors.toMap(c -> c.getMetadata().getName(),
                c -> Long.parseLong(c.getMetadata().getResourceVersion())));
    }

    /** The tables of the scenarios run so far, with a line on the run's size. */
    String report() {
        return "Informer chaos run, " + LocalDate.now() + ": " + options.trials() + " trial(s) per scenario, fault time "
                + options.faultTime().toMillis() / 1000.0 + " s, churn of " + options.writesPerSecond() + " writes/s over "
                + options.keys() + " keys; " + Runtime.getRuntime().availableProcessors() + " cores; kube-apiserver "
                + LocalApiServer.kubernetesVersion() + " with --watch-cache=false, etcd " + LocalApiServer.etcdVersion()
                + ".\n\n" + report.markdown();
    }

    /** Writes {@link #report()} to {@code informers.md} in the run's directory; returns the file. */
    Path writeReport() throws IOException {
        return Files.writeString(options.directory().resolve("informers.md"), report());
    }

    @Override
    public void close() {
        churn.close();
        subjects.forEach(SubjectProcess::close);
        writer.close();
        admin.close();
        server.close();
    }

    /**
     * Runs every scenario with {@link ChaosOptions#fromSystemProperties()} and prints the report
     * (also written to {@code target/chaos/informers.md}).
     */
    public static void main(String[] args) throws Exception {
        try (InformerChaos chaos = start(ChaosOptions.fromSystemProperties())) {
            for (Scenario scenario : Scenario.all()) {
                chaos.run(scenario);
            }
            Path file = chaos.writeReport();
            System.out.println(chaos.report());
            System.out.println("written to " + file.toAbsolutePath());
        }
        System.exit(0);
    }
}
