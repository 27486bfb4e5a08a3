package dev.operatorstarter;

import static com.tngtech.archunit.base.DescribedPredicate.not;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.importer.Location;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.junit.LocationProvider;
import com.tngtech.archunit.lang.ArchRule;
import dev.operatorstarter.time.TimeSource;
import java.net.URISyntaxException;
import java.util.Arrays;
import java.util.Set;
import java.util.stream.Stream;

/**
 * The package direction of DESIGN.md, over the runtime's main classes (not its tests, nor the test
 * module on the class path): {@code client} ← {@code cache} ← {@code controller} ← {@code manager};
 * {@code controller} → {@code workqueue}; {@code leaderelection} and {@code event} use only
 * {@code client}; {@code drain} uses only {@code client}; {@code webhook} uses only {@code time} and
 * {@code internal}; {@code time} and
 * {@code internal} may be used by every package and use nothing of ours but {@code time};
 * {@code crd} (annotations) uses nothing of ours. {@code sharding} is a plug-in above {@code manager}:
 * nothing in {@code manager} or {@code controller} imports it, and nothing else uses {@code manager}.
 *
 * <p>Each rule names what one package may use of ours; anything outside {@code dev.operatorstarter}
 * (the JDK, Reactor, Jackson, fabric8's models...) is not judged here. A new package needs a rule
 * of its own before its classes pass {@link #everyClassOfTheRuntimeIsInAPackageThatHasARuleHere}.
 */
@AnalyzeClasses(locations = ArchitectureTest.RuntimeMainClasses.class)
class ArchitectureTest {

    private static final String OURS = "dev.operatorstarter..";
    private static final String TIME = "dev.operatorstarter.time..";
    private static final String INTERNAL = "dev.operatorstarter.internal..";
    private static final String CLIENT = "dev.operatorstarter.client..";
    private static final String WORKQUEUE = "dev.operatorstarter.workqueue..";
    private static final String CACHE = "dev.operatorstarter.cache..";
    private static final String LEADERELECTION = "dev.operatorstarter.leaderelection..";
    private static final String EVENT = "dev.operatorstarter.event..";
    private static final String CONTROLLER = "dev.operatorstarter.controller..";
    private static final String MANAGER = "dev.operatorstarter.manager..";
    private static final String CRD = "dev.operatorstarter.crd..";
    private static final String WEBHOOK = "dev.operatorstarter.webhook..";
    private static final String SHARDING = "dev.operatorstarter.sharding..";
    private static final String RBAC = "dev.operatorstarter.rbac..";
    private static final String DRAIN = "dev.operatorstarter.drain..";

    @ArchTest
    static final ArchRule timeUsesNothingElseOfOurs = usesOfOursOnly(TIME);

    /** Annotations for the CRD generator: they stand alone, so a model class needs nothing else of ours. */
    @ArchTest
    static final ArchRule crdUsesNothingElseOfOurs = usesOfOursOnly(CRD);

    @ArchTest
    static final ArchRule internalUsesOnlyTime = usesOfOursOnly(INTERNAL, TIME);

    @ArchTest
    static final ArchRule workqueueUsesOnlyTimeAndInternal = usesOfOursOnly(WORKQUEUE, TIME, INTERNAL);

    @ArchTest
    static final ArchRule clientUsesOnlyTimeAndInternal = usesOfOursOnly(CLIENT, TIME, INTERNAL);

    @ArchTest
    static final ArchRule leaderElectionUsesOnlyTheClientTimeAndInternal =
            usesOfOursOnly(LEADERELECTION, CLIENT, TIME, INTERNAL);

    @ArchTest
    static final ArchRule eventUsesOnlyTheClientTimeAndInternal = usesOfOursOnly(EVENT, CLIENT, TIME, INTERNAL);

    @ArchTest
    static final ArchRule cacheUsesOnlyTheClientTimeAndInternal = usesOfOursOnly(CACHE, CLIENT, TIME, INTERNAL);

    @ArchTest
    static final ArchRule controllerUsesOnlyTheClientCacheWorkqueueTimeAndInternal =
            usesOfOursOnly(CONTROLLER, CLIENT, CACHE, WORKQUEUE, TIME, INTERNAL);

    /** Webhooks are functions on reviews: they need no client, cache or controller. */
    @ArchTest
    static final ArchRule webhookUsesOnlyTimeAndInternal = usesOfOursOnly(WEBHOOK, TIME, INTERNAL);

    /**
     * Sharding is a plug-in above the manager: it extends it through its extension points, decorates
     * sharded controllers, and campaigns for member Leases with leader election.
     */
    @ArchTest
    static final ArchRule shardingUsesOnlyTheManagerAndWhatItUses =
            usesOfOursOnly(SHARDING, MANAGER, CONTROLLER, CLIENT, CACHE, WORKQUEUE, LEADERELECTION, EVENT, TIME, INTERNAL);

    /** The manager runs everything below it; the capabilities above it (sharding) plug into it. */
    @ArchTest
    static final ArchRule managerUsesNothingAboveIt =
            usesOfOursOnly(MANAGER, CONTROLLER, CLIENT, CACHE, WORKQUEUE, LEADERELECTION, EVENT, TIME, INTERNAL);

    /** Nothing in the manager or the controller knows the sharding: it comes in through their extension points. */
    @ArchTest
    static final ArchRule neitherTheManagerNorTheControllerImportsSharding = noClasses()
            .that().resideInAnyPackage(MANAGER, CONTROLLER)
            .should().dependOnClassesThat().resideInAPackage(SHARDING)
            .because("sharding is a plug-in above the manager (ManagerPlugin, ControllerExtension)");

    /** The permissions of the parts are derived from resource types: the client's, nothing else. */
    @ArchTest
    static final ArchRule rbacUsesOnlyTheClient = usesOfOursOnly(RBAC, CLIENT);

    /** Draining a node is a client workflow (kubectl's pkg/drain): cordon, evictions, waits. */
    @ArchTest
    static final ArchRule drainUsesOnlyTheClientTimeAndInternal = usesOfOursOnly(DRAIN, CLIENT, TIME, INTERNAL);

    /** Only the manager's plug-ins build on the manager. */
    @ArchTest
    static final ArchRule onlyPluginsUseTheManager = noClasses().that().resideOutsideOfPackages(MANAGER, SHARDING)
            .should().dependOnClassesThat().resideInAPackage(MANAGER)
            .because("the manager owns and starts the other components; only plug-ins (sharding) extend it");

    /**
     * TLS goes in through {@code HttpClient.secure(SslProvider)}: the other two {@code secure}
     * methods initialise Reactor Netty's {@code HttpClientSecure}, whose static default contexts hold
     * the JVM's whole trust store for the JVM's life (docs/performance/informer-breakdown.md).
     */
    @ArchTest
    static final ArchRule noClassBuildsReactorNettysDefaultTlsContexts = noClasses()
            .should().callMethod(reactor.netty.http.client.HttpClient.class, "secure")
            .orShould().callMethod(reactor.netty.http.client.HttpClient.class, "secure", java.util.function.Consumer.class)
            .because("HttpClientSecure's defaults keep 145 CA certificates the client never uses");

    @ArchTest
    static final ArchRule everyClassOfTheRuntimeIsInAPackageThatHasARuleHere = classes()
            .should().resideInAnyPackage(TIME, INTERNAL, CLIENT, WORKQUEUE, CACHE, LEADERELECTION, EVENT, CONTROLLER,
                    MANAGER, CRD, WEBHOOK, SHARDING, RBAC, DRAIN, "dev.operatorstarter")
            .because("a new package needs its place in the direction decided here first");

    /** Classes in {@code origin} use nothing of ours outside {@code origin} and {@code allowed}. */
    private static ArchRule usesOfOursOnly(String origin, String... allowed) {
        String[] own = Stream.concat(Stream.of(origin), Arrays.stream(allowed)).toArray(String[]::new);
        return classes().that().resideInAPackage(origin)
                .should().onlyDependOnClassesThat(not(resideInAPackage(OURS)).or(resideInAnyPackage(own)))
                .as("classes in " + origin + " use nothing of dev.operatorstarter but "
                        + (allowed.length == 0 ? "their own package" : String.join(", ", allowed)));
    }

    /**
     * Where the classes compiled from operator-runtime's main sources are: not the tests, nor the
     * test module ({@code dev.operatorstarter.test..}) that is on the test class path too.
     */
    static final class RuntimeMainClasses implements LocationProvider {
        @Override
        public Set<Location> get(Class<?> testClass) {
            try {
                return Set.of(Location.of(TimeSource.class.getProtectionDomain().getCodeSource().getLocation().toURI()));
            } catch (URISyntaxException e) {
                throw new IllegalStateException(e);
            }
        }
    }
}
