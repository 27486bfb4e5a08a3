package dev.operatorstarter.autoconfigure.webhook;

import dev.operatorstarter.autoconfigure.webhook.WebhookBeans.AdmissionTarget;
import dev.operatorstarter.autoconfigure.webhook.WebhookBeans.ConversionTarget;
import dev.operatorstarter.client.DeleteOptions;
import dev.operatorstarter.client.KubernetesClient;
import dev.operatorstarter.client.PatchOptions;
import dev.operatorstarter.client.ResourceClient;
import dev.operatorstarter.client.ResourceType;
import dev.operatorstarter.client.rest.ApiException;
import dev.operatorstarter.client.rest.PatchType;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.MutatingWebhookConfiguration;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.RuleWithOperations;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.RuleWithOperationsBuilder;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingWebhook;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingWebhookBuilder;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingWebhookConfiguration;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.WebhookClientConfig;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * Registers the application's webhooks with the API server, pointing at its own
 * {@link WebhookServer}, as controller-runtime's envtest does with its {@code WebhookInstallOptions}:
 * one ValidatingWebhookConfiguration and one MutatingWebhookConfiguration named
 * {@code operator.webhook.register.name}, written by server-side apply (field manager
 * {@value #FIELD_MANAGER}) with a webhook per {@code @AdmissionWebhook} bean, and a {@code Webhook}
 * conversion in every CRD a {@code @ConversionWebhook} converts (a JSON merge patch of
 * {@code spec.conversion}).
 *
 * <p>Starts right after the server ({@link #PHASE}), so the configurations name its bound port,
 * and before the informers; the first attempt runs in {@link #start()}, so a successful
 * registration is done before the application reports it started. What could not be done (an
 * API call refused or past {@code api-deadline}, a CRD not installed) is kept as sentences in
 * {@link #pending()}, which keeps the {@code webhooks} health DOWN, logged, and retried every
 * {@code retry-period} on a thread of its own.
 *
 * <p>{@link #stop()} deletes the configurations (before the server stops), so a stopped local
 * run leaves no webhook that fails every write; CRDs are left as they are. A CA that changes
 * while running (supplied certificate files rotated) is not followed: registration is for local
 * runs and tests with a generated certificate.
 */
final class WebhookRegistration implements SmartLifecycle {

    /** Right after the webhook server: its port is known; stops before it. */
    static final int PHASE = NettyWebhookServer.PHASE + 1;
    static final String FIELD_MANAGER = "operator-starter-webhook-registration";
    private static final Logger log = LoggerFactory.getLogger(WebhookRegistration.class);
    private static final String NOT_YET = "the webhooks have not been registered with the API server yet";
    private static final String SUFFIX = ".webhooks.operatorstarter.dev";
    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final KubernetesClient client;
    private final WebhookServer server;
    private final WebhookProperties.Register options;
    private final String name;
    private final String host;
    private final Supplier<WebhookBeans.Targets> targets;

    private final Object lock = new Object();
    private volatile List<String> pending = List.of(NOT_YET);
    private volatile boolean running;
    private volatile @Nullable ScheduledExecutorService retries;
    private WebhookBeans.@Nullable Targets what;

    /**
     * @param name the configurations' name, a DNS subdomain
     * @param address the address the server listens on
     * @param targets what to register, read on the first start
     */
    WebhookRegistration(KubernetesClient client, WebhookServer server, WebhookProperties.Register options, String name,
            String address, Supplier<WebhookBeans.Targets> targets) {
        this.client = Objects.requireNonNull(client, "client");
        this.server = Objects.requireNonNull(server, "server");
        this.options = Objects.requireNonNull(options, "options");
        this.name = Objects.requireNonNull(name, "name");
        this.host = options.host() != null && !options.host().isBlank() ? options.host() : host(address);
        this.targets = Objects.requireNonNull(targets, "targets");
    }

    /** The host the API server calls: the listening address, loopback for every interface, IPv6 in brackets. */
    static String host(String address) {
        if (address.equals("0.0.0.0") || address.equals("::") || address.equals("[::]")) {
            return "127.0.0.1";
        }
        return address.contains(":") && !address.startsWith("[") ? "[" + address + "]" : address;
    }

    /**
     * A webhook name from a bean name: its last dot-separated part (a class name for an imported
     * class) as a DNS label of lower-case letters, digits and '-', under our domain; {@code taken}
     * names get a number ({@code -2}, {@code -3}) so the names in a configuration stay unique.
     */
    static String webhookName(String beanName, Set<String> taken) {
        String last = beanName.substring(beanName.lastIndexOf('.') + 1).toLowerCase(Locale.ROOT)
                .replaceAll("[^a-z0-9-]", "-").replaceAll("^-+|-+$", "");
        String label = last.isEmpty() ? "webhook" : last.length() > 60 ? last.substring(0, 60).replaceAll("-+$", "") : last;
        String name = label + SUFFIX;
        for (int number = 2; taken.contains(name); number++) {
            name = label + "-" + number + SUFFIX;
        }
        return name;
    }

    /** Every admission webhook's name, unique among them. */
    private static Map<AdmissionTarget, String> webhookNames(List<AdmissionTarget> targets) {
        Map<AdmissionTarget, String> names = new LinkedHashMap<>();
        for (AdmissionTarget target : targets) {
            names.put(target, webhookName(target.beanName(), new HashSet<>(names.values())));
        }
        return names;
    }

    @Override
    public void start() {
        synchronized (lock) {
            if (running) {
                return;
            }
            running = true;
            pending = List.of(NOT_YET);
            if (what == null) {
                what = registrable(targets.get());
            }
            if (!attempt()) {
                retries = Executors.newSingleThreadScheduledExecutor(runnable -> {
                    Thread thread = new Thread(runnable, "webhook-registration");
                    thread.setDaemon(true);
                    return thread;
                });
                schedule(retries);
            }
        }
    }

    private void schedule(ScheduledExecutorService scheduler) {
        try {
            scheduler.schedule(() -> {
                synchronized (lock) {
                    if (running && !attempt()) {
                        schedule(scheduler);
                    }
                }
            }, options.retryPeriod().toMillis(), TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException e) {
            // stopping
        }
    }

    /** One registration pass; whether everything is done. */
    private boolean attempt() {
        List<String> now = new ArrayList<>();
        List<String> done = new ArrayList<>();
        String ca = server.caCertificatePem();
        int port = server.port();
        if (ca == null || port < 0) {
            now.add(port < 0 ? "the webhook server does not listen" : "the webhook server has no CA to register "
                    + "(supplied certificate files without operator.webhook.certificate.ca-file)");
        } else {
            try {
                register(Objects.requireNonNull(what), ca, port, now, done);
            } catch (RuntimeException e) {
                now.add("the registration failed: " + e);
            }
        }
        boolean first = pending.equals(List.of(NOT_YET));
        boolean changed = !now.equals(pending);
        pending = List.copyOf(now);
        if ((first || changed) && !done.isEmpty()) {
            log.info("Registered with the API server: {}", String.join("; ", done));
        }
        if (changed && !now.isEmpty()) {
            log.warn("The webhooks are not all registered with the API server (retrying every {}): {}",
                    options.retryPeriod(), String.join("; ", now));
        }
        return now.isEmpty();
    }

    private void register(WebhookBeans.Targets what, String ca, int port, List<String> now, List<String> done) {
        String bundle = Base64.getEncoder().encodeToString(ca.getBytes(StandardCharsets.US_ASCII));
        String base = "https://" + host + ":" + port;
        Map<AdmissionTarget, String> names = webhookNames(what.admission());
        List<AdmissionTarget> validating = what.admission().stream().filter(target -> !target.mutating()).toList();
        List<AdmissionTarget> mutating = what.admission().stream().filter(AdmissionTarget::mutating).toList();
        write(deadlined(ValidatingWebhookConfiguration.class), validating.isEmpty() ? null
                : configuration(ValidatingWebhookConfiguration.class, validating, names, base, bundle),
                validating, names, base, now, done);
        write(deadlined(MutatingWebhookConfiguration.class), mutating.isEmpty() ? null
                : configuration(MutatingWebhookConfiguration.class, mutating, names, base, bundle),
                mutating, names, base, now, done);
        for (ConversionTarget conversion : what.conversion()) {
            convert(conversion, base + conversion.path(), bundle, now, done);
        }
    }

    /**
     * The targets that can be registered; an admission webhook whose class names no group and
     * version ({@code GenericKubernetesResource}) cannot, and is named in a warning instead.
     */
    private static WebhookBeans.Targets registrable(WebhookBeans.Targets all) {
        List<AdmissionTarget> admission = new ArrayList<>();
        for (AdmissionTarget target : all.admission()) {
            try {
                ResourceType.of(target.type());
                admission.add(target);
            } catch (IllegalArgumentException e) {
                log.warn("Cannot register the @AdmissionWebhook bean '{}' at {} with the API server: its class {} "
                        + "names no resource ({}). Write a webhook configuration for it yourself.", target.beanName(),
                        target.path(), target.type().getName(), e.getMessage());
            }
        }
        return new WebhookBeans.Targets(List.copyOf(admission), all.conversion());
    }

    private <T extends HasMetadata> ResourceClient<T> deadlined(Class<T> type) {
        return client.resources(type).withDeadline(options.apiDeadline());
    }

    /** Applies {@code configuration}, or deletes a leftover of that name when there is nothing to register. */
    private <T extends HasMetadata> void write(ResourceClient<T> resources, @Nullable T configuration,
            List<AdmissionTarget> webhooks, Map<AdmissionTarget, String> names, String base, List<String> now,
            List<String> done) {
        String kind = resources.type().kind();
        try {
            if (configuration == null) {
                if (resources.find(name).isPresent()) {
                    resources.delete(name, DeleteOptions.defaults());
                }
                return;
            }
            resources.apply(configuration, PatchOptions.forceApply(FIELD_MANAGER));
            done.add(kind + " " + name + " (" + webhooks.stream().map(target -> names.get(target) + " → "
                    + base + target.path() + " for " + rule(target).getResources() + " " + target.operations())
                    .collect(Collectors.joining(", ")) + ")");
        } catch (RuntimeException e) {
            now.add("cannot write " + kind + " " + name + ": " + e.getMessage());
        }
    }

    /**
     * A webhook configuration of {@code type} named {@link #name} with a webhook per target. Both
     * kinds have the same webhook fields, so each webhook is built once, as a validating one, and
     * read into {@code type} through JSON (a mutating webhook's {@code reinvocationPolicy} stays the
     * API server's default, {@code Never}).
     */
    private <C extends HasMetadata> C configuration(Class<C> type, List<AdmissionTarget> webhooks,
            Map<AdmissionTarget, String> names, String base, String bundle) {
        List<ValidatingWebhook> list = webhooks.stream().map(target -> new ValidatingWebhookBuilder()
                .withName(names.get(target)).withClientConfig(clientConfig(base + target.path(), bundle))
                .withRules(rule(target)).withObjectSelector(objectSelector())
                // a request in another version of the resource comes converted to the one the class decodes
                .withMatchPolicy("Equivalent")
                .withFailurePolicy(options.failurePolicy().name()).withSideEffects("None")
                .withAdmissionReviewVersions("v1").withTimeoutSeconds((int) options.timeout().toSeconds()).build())
                .toList();
        return JSON.convertValue(Map.of("apiVersion", "admissionregistration.k8s.io/v1", "kind", type.getSimpleName(),
                "metadata", Map.of("name", name), "webhooks", list), type);
    }

    private static WebhookClientConfig clientConfig(String url, String bundle) {
        WebhookClientConfig config = new WebhookClientConfig();
        config.setUrl(url);
        config.setCaBundle(bundle);
        return config;
    }

    private @Nullable LabelSelector objectSelector() {
        if (options.objectSelector().isEmpty()) {
            return null;
        }
        LabelSelector selector = new LabelSelector();
        selector.setMatchLabels(new LinkedHashMap<>(options.objectSelector()));
        return selector;
    }

    /** The bean's resource (group, version, plural, scope from its class) and operations. */
    private static RuleWithOperations rule(AdmissionTarget target) {
        ResourceType<?> type = ResourceType.of(target.type());
        return new RuleWithOperationsBuilder().withApiGroups(type.group()).withApiVersions(type.version())
                .withResources(type.plural()).withScope(type.namespaced() ? "Namespaced" : "Cluster")
                .withOperations(target.operations().stream().map(Enum::name).toList()).build();
    }

    /** Points every CRD the conversion path converts at it; a CRD not installed is reported by name. */
    private void convert(ConversionTarget conversion, String url, String bundle, List<String> now, List<String> done) {
        ResourceClient<CustomResourceDefinition> crds = client.apiextensionsV1().customResourceDefinitions()
                .withDeadline(options.apiDeadline());
        ObjectNode patch = JsonNodeFactory.instance.objectNode();
        ObjectNode webhook = patch.putObject("spec").putObject("conversion").put("strategy", "Webhook")
                .putObject("webhook");
        webhook.putArray("conversionReviewVersions").add("v1");
        webhook.set("clientConfig", clientConfigPatch(url, bundle));
        List<String> names = new ArrayList<>();
        try {
            if (conversion.classes().isEmpty()) {
                // a ready ConversionEndpoint: its CRDs are those of its group that serve all its versions
                String group = conversion.versions().iterator().next().split("/")[0];
                for (CustomResourceDefinition crd : Objects.requireNonNullElse(crds.list().items(),
                        List.<CustomResourceDefinition>of())) {
                    if (group.equals(crd.getSpec().getGroup()) && crd.getSpec().getVersions().stream()
                            .map(version -> group + "/" + version.getName()).toList()
                            .containsAll(conversion.versions())) {
                        names.add(crd.getMetadata().getName());
                    }
                }
                if (names.isEmpty()) {
                    now.add("no CustomResourceDefinition of group " + group + " with the versions "
                            + new TreeSet<>(conversion.versions()) + " converted at " + conversion.path()
                            + " is installed: install it");
                }
            } else {
                for (String crd : conversion.classes().stream().map(WebhookRegistration::crdName)
                        .collect(Collectors.toCollection(TreeSet::new))) {
                    if (crds.find(crd).isPresent()) {
                        names.add(crd);
                    } else {
                        now.add("CustomResourceDefinition " + crd + " is not installed, so " + conversion.path()
                                + " cannot convert it: install the CRD (LocalKubernetes installs crds/*.yaml from the "
                                + "classpath, or the resources in operator.local.crds)");
                    }
                }
            }
            for (String crd : names) {
                crds.patch(crd, PatchType.MERGE, patch, PatchOptions.none());
                done.add("CustomResourceDefinition " + crd + " converted by " + url);
            }
        } catch (RuntimeException e) {
            now.add("cannot point the conversion of " + (names.isEmpty() ? conversion.path() : names) + " at " + url + ": "
                    + e.getMessage());
        }
    }

    /**
     * A merge patch of the client configuration: the url and bundle set, a service removed. A JSON
     * tree, as the client's mapper leaves null map values out and the {@code null} must be sent.
     */
    static ObjectNode clientConfigPatch(String url, String bundle) {
        ObjectNode config = JsonNodeFactory.instance.objectNode();
        config.put("url", url);
        config.put("caBundle", bundle);
        config.putNull("service");
        return config;
    }

    private static String crdName(Class<? extends HasMetadata> type) {
        ResourceType<?> resource = ResourceType.of(type);
        return resource.plural() + "." + resource.group();
    }

    /** What is still to do; empty once every webhook is registered. */
    List<String> pending() {
        return pending;
    }

    @Override
    public void stop() {
        running = false;
        ScheduledExecutorService scheduler = retries;
        if (scheduler != null) {
            scheduler.shutdownNow(); // interrupts an attempt in flight, so the lock is not held for long
        }
        boolean registered;
        synchronized (lock) {
            if (retries != null) {
                retries.shutdownNow(); // one a concurrent start made after the shutdown above
                retries = null;
            }
            registered = what != null;
        }
        pending = List.of(NOT_YET);
        if (!registered) {
            return;
        }
        // both kinds by name, whether this run wrote them or an attempt cut short by the stop did
        for (ResourceClient<? extends HasMetadata> resources : List.of(deadlined(ValidatingWebhookConfiguration.class),
                deadlined(MutatingWebhookConfiguration.class))) {
            try {
                resources.delete(name, DeleteOptions.defaults());
                log.info("Removed the {} {} from the API server", resources.type().kind(), name);
            } catch (ApiException.NotFound e) {
                // already gone
            } catch (RuntimeException e) {
                log.warn("Cannot remove the {} {} from the API server; delete it yourself, or writes it matches may "
                        + "fail: {}", resources.type().kind(), name, e.getMessage());
            }
        }
    }

    @Override
    public boolean isRunning() {
        return running;
    }

    @Override
    public int getPhase() {
        return PHASE;
    }

    @Override
    public boolean isPauseable() {
        return false;
    }
}
