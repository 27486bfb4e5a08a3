package dev.operatorstarter.autoconfigure.local;

import dev.operatorstarter.autoconfigure.KubernetesConnectionDetails;
import dev.operatorstarter.client.KubernetesClient;
import dev.operatorstarter.client.config.ClientConfig;
import dev.operatorstarter.client.config.InClusterConfig;
import dev.operatorstarter.client.config.KubeconfigLoader;
import dev.operatorstarter.test.ClusterConnection;
import dev.operatorstarter.test.ServiceAccounts;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.Base64;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.springframework.boot.SpringApplication;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.env.SystemEnvironmentPropertySource;

/**
 * This JVM as a pod of a Deployment installed in the test cluster (usually by a Helm chart, with
 * {@code dev.operatorstarter.test.helm.HelmChart}): an operator started with {@link #run} has the
 * pod's identity and configuration, so a test proves that what the chart grants and sets is what
 * the operator needs. The local API server runs no kubelet, so this stands in for one:
 *
 * <ul>
 *   <li><b>Identity</b>: a token for the pod template's ServiceAccount from the TokenRequest API (as
 *       the kubelet mounts one), written with the cluster's CA and the namespace into a
 *       service-account folder; the application connects through the in-cluster configuration
 *       ({@link InClusterConfig}), with {@code KUBERNETES_SERVICE_HOST} and
 *       {@code KUBERNETES_SERVICE_PORT} naming the API server. Whatever the chart's RBAC refuses
 *       the ServiceAccount is refused the operator.
 *   <li><b>Environment</b>: the first container's {@code envFrom} and {@code env} as the kubelet
 *       resolves them (ConfigMap and Secret keys, {@code $(NAME)} references, the {@code fieldRef}s
 *       {@code metadata.name}, {@code metadata.namespace}, {@code spec.serviceAccountName}, the
 *       template's labels and annotations, and the pod and host IP as {@code 127.0.0.1}), after
 *       {@code HOSTNAME} (the pod's name, {@code <deployment>-<five characters>}, new for each
 *       pod) and the two {@code KUBERNETES_SERVICE_*} variables. The application sees them as
 *       environment variables, with Spring Boot's relaxed binding ({@code OPERATOR_X_Y} is
 *       {@code operator.x.y}).
 * </ul>
 *
 * <pre>{@code
 * try (ChartRelease release = HelmChart.at(Path.of("chart")).install(connection, namespace.name(), "greeting", Map.of());
 *         ConfigurableApplicationContext operator = DeploymentPod.create(connection, namespace.name(), release.name(), folder)
 *                 .withEnvironment("SERVER_PORT", "0").withEnvironment("MANAGEMENT_SERVER_PORT", "0")
 *                 .run(GreetingOperator.class)) {
 *     // the operator reconciles with the chart's RBAC and the Deployment's environment
 * }
 * }</pre>
 *
 * <h2>Caveats</h2>
 * <ul>
 *   <li>Pods of one Deployment share this host: ports the container binds ({@code SERVER_PORT},
 *       {@code MANAGEMENT_SERVER_PORT}, a webhook port) are taken as set, so set them to {@code 0}
 *       with {@link #withEnvironment} unless the test needs one fixed.
 *   <li>Volumes are not mounted, the image, probes, resources and security context play no part,
 *       and the token is not rotated (it is valid for an hour). The pod's other containers are
 *       ignored. The process's own environment stays visible beneath the pod's.
 *   <li>{@code resourceFieldRef} and the other {@code fieldRef}s fail {@link #create}, naming the
 *       variable.
 * </ul>
 */
public final class DeploymentPod {

    private static final Duration TOKEN_VALIDITY = Duration.ofHours(1);
    private static final String ALPHABET = "bcdfghjklmnpqrstvwxz2456789"; // as Kubernetes' generated names
    private static final SecureRandom RANDOM = new SecureRandom();

    private final String name;
    private final String namespace;
    private final String serviceAccount;
    private final Path serviceAccountDirectory;
    private final Map<String, String> environment;

    private DeploymentPod(String name, String namespace, String serviceAccount, Path serviceAccountDirectory,
            Map<String, String> environment) {
        this.name = name;
        this.namespace = namespace;
        this.serviceAccount = serviceAccount;
        this.serviceAccountDirectory = serviceAccountDirectory;
        this.environment = Collections.unmodifiableMap(new LinkedHashMap<>(environment));
    }

    /**
     * A pod of Deployment {@code namespace/deployment} as the cluster holds it: requests its
     * ServiceAccount's token and writes the service-account folder under {@code folder} (created
     * when missing; a test's {@code @TempDir}), and resolves the first container's environment.
     *
     * @param admin a connection allowed to read the Deployment, the ConfigMaps and Secrets its
     *     environment names, and to request tokens (the test cluster's administrator)
     * @throws IllegalStateException when there is no such Deployment, or a variable cannot be
     *     resolved (the message names it)
     */
    public static DeploymentPod create(ClusterConnection admin, String namespace, String deployment, Path folder) {
        try (KubernetesClient client = KubernetesClient.create(KubeconfigLoader.load(admin.kubeconfig(), null))) {
            Deployment found = client.appsV1().deployments().inNamespace(namespace).find(deployment)
                    .orElseThrow(() -> new IllegalStateException("no Deployment " + namespace + "/" + deployment
                            + " in the cluster: is the chart installed into that namespace, and is that its name?"));
            PodSpec spec = found.getSpec().getTemplate().getSpec();
            ObjectMeta template = found.getSpec().getTemplate().getMetadata();
            String account = spec.getServiceAccountName() == null || spec.getServiceAccountName().isBlank() ? "default"
                    : spec.getServiceAccountName();
            String name = podName(deployment);
            Path directory = Files.createDirectories(folder).resolve("serviceaccount");
            Files.createDirectories(directory);
            String token = ServiceAccounts.connectAs(admin, namespace, account, TOKEN_VALIDITY, folder.resolve("kubeconfig"))
                    .bearerToken();
            writeOwnerOnly(directory.resolve("token"), String.valueOf(token));
            Files.writeString(directory.resolve("ca.crt"), admin.certificateAuthorityPem());
            Files.writeString(directory.resolve("namespace"), namespace);

            Map<String, String> kubelet = new LinkedHashMap<>();
            kubelet.put("HOSTNAME", name);
            kubelet.put("KUBERNETES_SERVICE_HOST", admin.server().getHost());
            kubelet.put("KUBERNETES_SERVICE_PORT", String.valueOf(admin.server().getPort() < 0 ? 443 : admin.server().getPort()));
            Container container = spec.getContainers().get(0);
            PodEnvironment.Pod pod = new PodEnvironment.Pod(name, namespace, account, "127.0.0.1",
                    template == null || template.getLabels() == null ? Map.of() : template.getLabels(),
                    template == null || template.getAnnotations() == null ? Map.of() : template.getAnnotations());
            Map<String, String> environment = PodEnvironment.resolve(kubelet, container.getEnvFrom(), container.getEnv(), pod,
                    lookup(client, namespace));
            return new DeploymentPod(name, namespace, account, directory, environment);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the service-account folder under " + folder + ": " + e.getMessage(), e);
        }
    }

    /** The pod's name ({@code HOSTNAME}, {@code metadata.name}): the Deployment's name and five random characters. */
    public String name() {
        return name;
    }

    /** The namespace of the Deployment, and so of the pod and its service-account folder. */
    public String namespace() {
        return namespace;
    }

    /** The ServiceAccount the pod runs as ({@code default} when the template names none). */
    public String serviceAccount() {
        return serviceAccount;
    }

    /** The folder with {@code token}, {@code ca.crt} and {@code namespace}, as mounted into a pod. */
    public Path serviceAccountDirectory() {
        return serviceAccountDirectory;
    }

    /** The environment the application gets, in the kubelet's order. */
    public Map<String, String> environment() {
        return environment;
    }

    /** This pod with variable {@code name} set to {@code value}, replacing the Deployment's. */
    public DeploymentPod withEnvironment(String name, String value) {
        Map<String, String> changed = new LinkedHashMap<>(environment);
        changed.put(name, value);
        return new DeploymentPod(this.name, namespace, serviceAccount, serviceAccountDirectory, changed);
    }

    /** This pod without variable {@code name}. */
    public DeploymentPod withoutEnvironment(String name) {
        Map<String, String> changed = new LinkedHashMap<>(environment);
        changed.remove(name);
        return new DeploymentPod(this.name, namespace, serviceAccount, serviceAccountDirectory, changed);
    }

    /** The client configuration a process in the pod reads: {@link InClusterConfig} from its environment and folder. */
    public ClientConfig clientConfig() {
        return InClusterConfig.load(environment, serviceAccountDirectory);
    }

    /**
     * Starts Spring Boot application {@code application} as this pod: {@link #environment()} as
     * environment variables (above the process's own), and a {@link KubernetesConnectionDetails}
     * bean of {@link #clientConfig()}, so the application talks to the cluster as the pod's
     * ServiceAccount. Returns when {@link SpringApplication#run} does; close the context to stop
     * the application.
     *
     * @param args the application's arguments (a container's {@code args})
     */
    public ConfigurableApplicationContext run(Class<?> application, String... args) {
        ClientConfig config = clientConfig();
        SpringApplication spring = new SpringApplication(application);
        spring.setMainApplicationClass(application);
        // In the environment from the start, as a pod's variables are, so the starter's environment
        // post-processors read them too. A "-systemEnvironment" name gets Boot's relaxed mapping of
        // OPERATOR_X_Y to operator.x.y.
        StandardEnvironment variables = new StandardEnvironment();
        variables.getPropertySources().addFirst(new SystemEnvironmentPropertySource(
                "deploymentPod-" + StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME, new LinkedHashMap<String, Object>(environment)));
        spring.setEnvironment(variables);
        spring.addInitializers(context -> context.getBeanFactory().registerSingleton("deploymentPodConnectionDetails",
                (KubernetesConnectionDetails) () -> config));
        return spring.run(args);
    }

    @Override
    public String toString() {
        return "DeploymentPod[" + namespace + "/" + name + " as " + serviceAccount + "]";
    }

    private static String podName(String deployment) {
        StringBuilder name = new StringBuilder(deployment).append('-');
        for (int i = 0; i < 5; i++) {
            name.append(ALPHABET.charAt(RANDOM.nextInt(ALPHABET.length())));
        }
        return name.toString();
    }

    private static PodEnvironment.Lookup lookup(KubernetesClient client, String namespace) {
        return new PodEnvironment.Lookup() {
            @Override
            public Optional<Map<String, String>> configMap(String name) {
                return client.coreV1().configMaps().inNamespace(namespace).find(name).map(DeploymentPod::data);
            }

            @Override
            public Optional<Map<String, String>> secret(String name) {
                return client.coreV1().secrets().inNamespace(namespace).find(name).map(DeploymentPod::data);
            }
        };
    }

    private static Map<String, String> data(ConfigMap configMap) {
        return configMap.getData() == null ? Map.of() : configMap.getData();
    }

    private static Map<String, String> data(Secret secret) {
        Map<String, String> decoded = new LinkedHashMap<>();
        if (secret.getData() != null) {
            secret.getData().forEach((key, value) -> decoded.put(key,
                    new String(Base64.getDecoder().decode(value), StandardCharsets.UTF_8)));
        }
        return decoded;
    }

    private static void writeOwnerOnly(Path file, String text) throws IOException {
        if (FileSystems.getDefault().supportedFileAttributeViews().contains("posix")) {
            Files.deleteIfExists(file);
            Files.createFile(file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        }
        Files.writeString(file, text);
    }
}
