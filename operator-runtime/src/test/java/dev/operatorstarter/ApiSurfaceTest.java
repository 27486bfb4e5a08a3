package dev.operatorstarter;

import static java.util.Map.entry;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaCodeUnit;
import com.tngtech.archunit.core.domain.JavaField;
import com.tngtech.archunit.core.domain.JavaMember;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.assertj.core.api.SoftAssertions;

/**
 * The runtime's published API (docs/architecture/api.md): the public top-level types of its main
 * classes are exactly {@link #API}, the types of the API packages that applications use, plus
 * {@link #PUBLIC_BUT_NOT_API}, each listed with the reason it is public. A new public type fails
 * this test until it is added to one of the two (or made package-private); an entry for a type
 * that is no longer public fails it too, so the lists stay the truth. Each failure message lists
 * every offender, so one run is enough to update the lists.
 *
 * <p>The members that API types expose (public and protected constructors, methods and fields,
 * of the type and of its public nested types) mention no {@code internal} type and no type that
 * applications cannot name (package-private, or nested in one). A listed non-API type that an API
 * signature names (such as {@code Membership}, which {@code Sharding.membership()} returns) is in
 * practice API until that member goes; its reason says when.
 */
@AnalyzeClasses(locations = ArchitectureTest.RuntimeMainClasses.class)
class ApiSurfaceTest {

    private static final String ROOT = "dev.operatorstarter";

    /** Per API package (relative to {@value #ROOT}), its API: the public top-level types applications use. */
    static final Map<String, String> API = Map.ofEntries(
            entry("cache", "HandlerRegistration IndexFunction IndexFunctionException Indexer InformerOptions"
                    + " InformerScope InformerSyncException Keys LabelSelector Lister ListerWatcher ObjectReader"
                    + " ReaderMetrics ReaderOptions ReflectorException ReflectorMetrics ReflectorOptions"
                    + " ResourceEventHandler SharedIndexInformer SharedInformerFactory Transforms"),
            entry("client", "Clientset CustomResource DeleteOptions Evictions GroupVersionResource KubernetesClient"
                    + " KubernetesJson PatchOptions ResourceClient ResourceList ResourceType RetryOnConflict"),
            entry("client.config", "ClientCertificate ClientConfig ConfigException Credentials InClusterConfig"
                    + " RedactedUri TlsSettings"),
            entry("client.discovery", "ApiResource DiscoveryClient ResourceLookup ServerVersion"),
            entry("client.pod", "ExecException ExecOptions ExecResult ExecSession LocalPortForward LogOptions PodLogs"
                    + " PodStreams PortForward"),
            entry("client.rest", "ApiErrors ApiException ClientOptions KubernetesClientException ListOptions"
                    + " PatchType RateLimit Request RequestMetrics ResponseTooLargeException RestClient WatchEvent"
                    + " WebSocket"),
            entry("controller", "Cleaner Conditions Controller ControllerBuilder ControllerDecorator"
                    + " ControllerMetrics ControllerOptions EventFilter Finalizers OwnerReferences ReconcileHandler"
                    + " ReconcileRequest ReconcileResult TerminalException Writes"),
            entry("crd", "Categories Default EmbeddedResource ListMapKeys ListType MapType NullAllowed"
                    + " PreserveUnknownFields PrinterColumn PrinterColumns ScaleSubresource SchemaFrom"
                    + " ValidationRule ValidationRules"),
            entry("drain", "DrainException DrainOptions DrainResult NodeDrainer"),
            entry("event", "EventBroadcaster EventOptions EventRecorder EventType"),
            entry("leaderelection", "LeaderCallbacks LeaderElectionConfig LeaderElectionRecord LeaderElector"
                    + " LeaderMetrics Leadership LeaseLock LeaseTiming ResourceLock"),
            entry("manager", "ControllerExtension ControllerLayout ControllerStatus ExtensionRefusedException ManagedControllerBuilder ManagedRunnable "
                    + "Manager ManagerBuilder ManagerOptions ManagerPlugin MemberTerms ResourceNotServedException RunnableGroup"),
            entry("rbac", "AccessRule AccessRules OperatorAccess Permission Permissions"),
            entry("sharding", "MemberState RingStatus ShardedResource Sharding ShardingException ShardingMetrics"
                    + " ShardingOptions"),
            entry("time", "TimeSource"),
            entry("webhook", "Admission AdmissionEndpoint AdmissionVerdict ConversionEndpoint Converter JsonPatch"
                    + " MutatingHandler Mutation ValidatingHandler WebhookEndpoint"),
            entry("workqueue", "DelayingQueue PriorityQueue RateLimiter RateLimitingQueue WorkQueue WorkQueueBuilder"
                    + " WorkQueueMetrics"));

    /**
     * Public types that are not API, and why each is public. {@code internal}'s are public so that
     * the runtime's packages can share them ({@link ModuleBoundaryTest} keeps other modules out);
     * the others wait for the change named in their reason.
     */
    static final Map<String, String> PUBLIC_BUT_NOT_API = Map.ofEntries(
            entry("internal.DaemonThreads", "shared machinery: the options' default thread factories, in every"
                    + " package that starts threads"),
            entry("internal.Durations", "shared machinery: duration checks of every options record"),
            entry("internal.Json", "shared machinery: the object mapper of client, cache, controller and webhook"
                    + " (webhook may not use client, where the API face KubernetesJson lives)"),
            entry("internal.Poll", "shared machinery: the one wait for caches to sync (cache, controller,"
                    + " manager, sharding)"),
            entry("internal.StopSignal", "shared machinery: stop requests of the reflector and the elector"),
            entry("client.config.KubeconfigLoader", "split: the starter, sample, benchmarks and tests load"
                    + " kubeconfigs through it; ClientConfig.load() is the API. Hide or shrink it with its split"),
            entry("controller.WriteTracker", "the sharding's assigner records its label writes in a controller's"
                    + " tracker (Controller.writes()); a package-private seam needs sharding and controller to share a package"),
            entry("sharding.HashRing", "the starter's ShardedReconcilerIT and the runtime's ShardingIT compute"
                    + " the expected owner with it; give them a test fixture, then hide it"),
            entry("sharding.Membership", "in practice API: Sharding.membership() (the lead's file) returns it"
                    + " and RingStatus.phase() is its Phase, which the starter's ShardingHealthIndicator reads;"
                    + " the lead decides with Sharding's restructuring: move Phase to RingStatus and hide it,"
                    + " or make it API"),
            entry("sharding.ShardLabels", "the starter's ShardSettings derives shard ids and Lease names with it;"
                    + " the sample's chart tests and the benchmarks read its label names. An API for the"
                    + " labels (RingStatus?) or a fixture first, then hide it"));

    @ArchTest
    static void thePublicTypesAreExactlyTheApiAndTheListedExceptions(JavaClasses classes) {
        Set<String> published = publicTopLevelTypes(classes);
        Set<String> api = qualified(API);
        Set<String> listed = PUBLIC_BUT_NOT_API.keySet().stream().map(ApiSurfaceTest::qualified)
                .collect(Collectors.toCollection(TreeSet::new));

        SoftAssertions.assertSoftly(softly -> {
            softly.assertThat(api).as("API and PUBLIC_BUT_NOT_API name the same type")
                    .doesNotContainAnyElementsOf(listed);
            softly.assertThat(without(without(published, api), listed)).as("""
                    public types that are neither API nor listed with a reason: add each to API (applications \
                    need it), make it package-private (nothing outside its package uses it) or list it in \
                    PUBLIC_BUT_NOT_API with the reason""").isEmpty();
            softly.assertThat(without(api, published))
                    .as("API entries that are not public types (any more): remove them").isEmpty();
            softly.assertThat(without(listed, published))
                    .as("PUBLIC_BUT_NOT_API entries that are not public types (any more): remove them").isEmpty();
        });
    }

    @ArchTest
    static void everyApiTypeLiesInAnApiPackage(JavaClasses classes) {
        assertThat(API).doesNotContainKey("internal");
        assertThat(API.keySet()).allSatisfy(name -> assertThat(classes.containPackage(ROOT + "." + name))
                .as("package %s.%s exists", ROOT, name).isTrue());
    }

    @ArchTest
    static void apiSignaturesMentionNoInternalOrHiddenTypeOfOurs(JavaClasses classes) {
        Set<String> api = qualified(API);
        Set<String> nameable = new TreeSet<>(api);
        PUBLIC_BUT_NOT_API.keySet().stream().filter(name -> !name.startsWith("internal."))
                .map(ApiSurfaceTest::qualified).forEach(nameable::add);
        List<String> leaks = new ArrayList<>();
        classes.stream().filter(type -> api.contains(topLevel(type).getName())).filter(ApiSurfaceTest::exposed)
                .forEach(type -> exposedMembers(type).forEach(member -> involvedTypes(member)
                        .filter(used -> used.getPackageName().startsWith(ROOT + "."))
                        .filter(used -> !nameable.contains(topLevel(used).getName()) || !exposed(used))
                        .forEach(used -> leaks.add(member.getFullName() + " -> " + used.getName()))));
        assertThat(leaks).as("""
                API members that expose a type of ours applications should not or cannot name (internal, \
                package-private, or public but unlisted): hide the member, or make the type API""")
                .isEmpty();
    }

    /** The public top-level types of the runtime's main classes. */
    private static Set<String> publicTopLevelTypes(JavaClasses classes) {
        return classes.stream().filter(JavaClass::isTopLevelClass)
                .filter(type -> type.getModifiers().contains(JavaModifier.PUBLIC))
                .filter(type -> !type.getSimpleName().equals("package-info")).map(JavaClass::getName)
                .collect(Collectors.toCollection(TreeSet::new));
    }

    /** Whether applications can name {@code type}: it and every class around it are public. */
    private static boolean exposed(JavaClass type) {
        for (JavaClass at = type; at != null; at = at.getEnclosingClass().orElse(null)) {
            if (!at.getModifiers().contains(JavaModifier.PUBLIC)) {
                return false;
            }
        }
        return true;
    }

    private static Stream<JavaMember> exposedMembers(JavaClass type) {
        Predicate<JavaMember> visible = member -> member.getModifiers().contains(JavaModifier.PUBLIC)
                || member.getModifiers().contains(JavaModifier.PROTECTED);
        return type.getMembers().stream().filter(visible)
                .filter(member -> !member.getModifiers().contains(JavaModifier.SYNTHETIC));
    }

    /** The types a member's signature names: parameters, return, field type, throws, type arguments. */
    private static Stream<JavaClass> involvedTypes(JavaMember member) {
        Stream<JavaClass> types;
        if (member instanceof JavaCodeUnit code) {
            Stream<JavaClass> parameters = code.getParameterTypes().stream()
                    .flatMap(type -> type.getAllInvolvedRawTypes().stream());
            types = Stream.concat(Stream.concat(parameters, code.getReturnType().getAllInvolvedRawTypes().stream()),
                    code.getExceptionTypes().stream());
        } else if (member instanceof JavaField field) {
            types = field.getType().getAllInvolvedRawTypes().stream();
        } else {
            types = Stream.empty();
        }
        return types.map(type -> type.isArray() ? type.getBaseComponentType() : type);
    }

    private static JavaClass topLevel(JavaClass type) {
        JavaClass at = type;
        while (at.getEnclosingClass().isPresent()) {
            at = at.getEnclosingClass().get();
        }
        return at;
    }

    private static Set<String> qualified(Map<String, String> byPackage) {
        return byPackage.entrySet().stream().flatMap(entry -> Arrays.stream(entry.getValue().split(" "))
                        .map(name -> ROOT + "." + entry.getKey() + "." + name))
                .collect(Collectors.toCollection(TreeSet::new));
    }

    private static String qualified(String relative) {
        return ROOT + "." + relative;
    }

    private static Set<String> without(Set<String> all, Set<String> removed) {
        Set<String> rest = new TreeSet<>(all);
        rest.removeAll(removed);
        return rest;
    }
}
