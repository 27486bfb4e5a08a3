package dev.operatorstarter.benchmarks.chaos;

import dev.operatorstarter.benchmarks.Subject;
import dev.operatorstarter.cache.InformerOptions;
import dev.operatorstarter.cache.InformerScope;
import dev.operatorstarter.cache.ReflectorOptions;
import dev.operatorstarter.cache.ResourceEventHandler;
import dev.operatorstarter.cache.SharedIndexInformer;
import dev.operatorstarter.cache.SharedInformerFactory;
import dev.operatorstarter.client.KubernetesClient;
import dev.operatorstarter.client.config.KubeconfigLoader;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ConfigMapList;
import io.kubernetes.client.util.generic.GenericKubernetesApi;
import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.List;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * One subject's informer in a JVM of its own, for the chaos runs: it informs on the ConfigMaps of
 * one namespace with the client's defaults (ours: but for the stall timeout, see
 * {@link #OURS_STALL_TIMEOUT}), appends every handler notification to an events file
 * as an {@link InformerEvent} line, and answers the driver's commands on standard input:
 *
 * <ul>
 *   <li>once the cache has synced it prints {@code synced};</li>
 *   <li>if the informer stops by itself (fabric8's does, after an error it does not retry), it
 *       prints {@code stopped <reason>};</li>
 *   <li>{@code snapshot <file>}: writes the cache's content as {@code <name> <resourceVersion>}
 *       lines to the file, then prints {@code done};</li>
 *   <li>{@code exit}, or the end of standard input: halts.</li>
 * </ul>
 *
 * <p>fabric8 runs with {@code onlyHttpWatches}: by default it watches over WebSocket, which the
 * fault proxy tunnels without seeing events, so the body faults (cut and malformed streams) could
 * not reach it. The official client gets no read timeout (its documentation's advice for
 * informers: a watch may stay quiet for long).
 *
 * <p>Usage: {@code ChaosSubject <ours|fabric8|official> <namespace> <kubeconfig> <eventsFile>}
 */
public final class ChaosSubject {

    /**
     * Our reflector's stall timeout in these runs: a watch silent this long is reopened. The
     * default, 3 min, would outlast a trial; under the churn's 20 writes/s a healthy watch is never
     * silent this long.
     */
    static final Duration OURS_STALL_TIMEOUT = Duration.ofSeconds(5);

    private ChaosSubject() {
    }

    /** What the driver needs of an informer; holding it keeps the informer reachable. */
    private record Cache(BooleanSupplier synced, Supplier<List<String>> content, Object keepAlive) {
    }

    public static void main(String[] args) throws Exception {
        Subject subject = Subject.parse(args[0]);
        String namespace = args[1];
        Path kubeconfig = Path.of(args[2]);
        EventFile events = new EventFile(Path.of(args[3]));
        Cache cache = switch (subject) {
            case OURS -> ours(namespace, kubeconfig, events);
            case FABRIC8 -> fabric8(namespace, kubeconfig, events);
            case OFFICIAL -> official(namespace, kubeconfig, events);
            case OURS_NO_TRANSFORM, CONTROLLER_RUNTIME, CONTROLLER_RUNTIME_NO_TRANSFORM -> throw new IllegalArgumentException("the chaos runs use ours with its defaults");
        };
        while (!cache.synced().getAsBoolean()) {
            Thread.sleep(10);
        }
        System.out.println("synced");
        System.out.flush();
        BufferedReader commands = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        for (String command = commands.readLine(); command != null && !command.equals("exit");
                command = commands.readLine()) {
            if (command.startsWith("snapshot ")) {
                Files.write(Path.of(command.substring("snapshot ".length())), cache.content().get());
                System.out.println("done");
                System.out.flush();
            }
        }
        Runtime.getRuntime().halt(cache.keepAlive() == null ? 1 : 0);
    }

    /** Appends event lines; handlers of one informer call it from their thread, one at a time. */
    static final class EventFile {
        private final BufferedWriter out;

        EventFile(Path file) throws IOException {
            this.out = Files.newBufferedWriter(file, StandardCharsets.UTF_8, StandardOpenOption.CREATE,
                    StandardOpenOption.APPEND);
        }

        synchronized void append(InformerEvent.Type type, String name, String resourceVersion, boolean tombstone) {
            try {
                out.write(new InformerEvent(type, name, Long.parseLong(resourceVersion), tombstone,
                        System.currentTimeMillis()).line());
                out.newLine();
                out.flush();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

    private static Cache ours(String namespace, Path kubeconfig, EventFile events) {
        KubernetesClient client = KubernetesClient.create(KubeconfigLoader.load(kubeconfig, null));
        SharedInformerFactory factory = new SharedInformerFactory(client, InformerOptions.builder()
                .reflector(ReflectorOptions.defaults().toBuilder().stallTimeout(OURS_STALL_TIMEOUT).build()).build());
        SharedIndexInformer<ConfigMap> informer = factory.informerFor(ConfigMap.class, InformerScope.namespace(namespace));
        informer.addEventHandler(new ResourceEventHandler<>() {
            @Override
            public void onAdd(ConfigMap object, boolean isInInitialList) {
                events.append(InformerEvent.Type.ADD, object.getMetadata().getName(),
                        object.getMetadata().getResourceVersion(), false);
            }

            @Override
            public void onUpdate(ConfigMap oldObject, ConfigMap newObject) {
                events.append(InformerEvent.Type.UPDATE, newObject.getMetadata().getName(),
                        newObject.getMetadata().getResourceVersion(), false);
            }

            @Override
            public void onDelete(ConfigMap object, boolean finalStateUnknown) {
                events.append(InformerEvent.Type.DELETE, object.getMetadata().getName(),
                        object.getMetadata().getResourceVersion(), finalStateUnknown);
            }
        });
        factory.start();
        return new Cache(informer::hasSynced, () -> (informer.indexer().list().stream()
                .map(c -> c.getMetadata().getName() + " " + c.getMetadata().getResourceVersion()).toList()), factory);
    }

    private static Cache fabric8(String namespace, Path kubeconfig, EventFile events) throws IOException {
        Config config = Config.fromKubeconfig(Files.readString(kubeconfig));
        config.setOnlyHttpWatches(true);
        io.fabric8.kubernetes.client.KubernetesClient client = new KubernetesClientBuilder().withConfig(config).build();
        io.fabric8.kubernetes.client.informers.SharedIndexInformer<ConfigMap> informer = client.configMaps()
                .inNamespace(namespace).inform(new io.fabric8.kubernetes.client.informers.ResourceEventHandler<>() {
                    @Override
                    public void onAdd(ConfigMap object) {
                        events.append(InformerEvent.Type.ADD, object.getMetadata().getName(),
                                object.getMetadata().getResourceVersion(), false);
                    }

                    @Override
                    public void onUpdate(ConfigMap oldObject, ConfigMap newObject) {
                        events.append(InformerEvent.Type.UPDATE, newObject.getMetadata().getName(),
                                newObject.getMetadata().getResourceVersion(), false);
                    }

                    @Override
                    public void onDelete(ConfigMap object, boolean deletedFinalStateUnknown) {
                        events.append(InformerEvent.Type.DELETE, object.getMetadata().getName(),
                                object.getMetadata().getResourceVersion(), deletedFinalStateUnknown);
                    }
                });
        informer.stopped().whenComplete((ignored, error) -> {
            System.out.println("stopped " + (error == null ? "without an error" : error.toString().replace('\n', ' ')));
            System.out.flush();
        });
        return new Cache(informer::hasSynced, () -> (informer.getStore().list().stream()
                .map(c -> c.getMetadata().getName() + " " + c.getMetadata().getResourceVersion()).toList()), client);
    }

    private static Cache official(String namespace, Path kubeconfig, EventFile events) throws IOException {
        ApiClient client = io.kubernetes.client.util.Config.fromConfig(kubeconfig.toString());
        client.setReadTimeout(0); // watches
        io.kubernetes.client.informer.SharedInformerFactory factory = new io.kubernetes.client.informer.SharedInformerFactory(client);
        io.kubernetes.client.informer.SharedIndexInformer<V1ConfigMap> informer = factory.sharedIndexInformerFor(
                new GenericKubernetesApi<>(V1ConfigMap.class, V1ConfigMapList.class, "", "v1", "configmaps", client),
                V1ConfigMap.class, 0L, namespace);
        informer.addEventHandler(new io.kubernetes.client.informer.ResourceEventHandler<>() {
            @Override
            public void onAdd(V1ConfigMap object) {
                events.append(InformerEvent.Type.ADD, object.getMetadata().getName(),
                        object.getMetadata().getResourceVersion(), false);
            }

            @Override
            public void onUpdate(V1ConfigMap oldObject, V1ConfigMap newObject) {
                events.append(InformerEvent.Type.UPDATE, newObject.getMetadata().getName(),
                        newObject.getMetadata().getResourceVersion(), false);
            }

            @Override
            public void onDelete(V1ConfigMap object, boolean deletedFinalStateUnknown) {
                events.append(InformerEvent.Type.DELETE, object.getMetadata().getName(),
                        object.getMetadata().getResourceVersion(), deletedFinalStateUnknown);
            }
        });
        factory.startAllRegisteredInformers();
        return new Cache(informer::hasSynced, () -> (informer.getIndexer().list().stream()
                .map(c -> c.getMetadata().getName() + " " + c.getMetadata().getResourceVersion()).toList()), factory);
    }
}
