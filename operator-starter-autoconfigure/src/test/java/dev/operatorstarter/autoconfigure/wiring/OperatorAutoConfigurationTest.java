package dev.operatorstarter.autoconfigure.wiring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import dev.operatorstarter.autoconfigure.ControllerCustomizer;
import dev.operatorstarter.autoconfigure.InformerCustomizer;
import dev.operatorstarter.autoconfigure.KubernetesClientCustomizer;
import dev.operatorstarter.autoconfigure.KubernetesConnectionDetails;
import dev.operatorstarter.autoconfigure.MetadataRequestMapper;
import dev.operatorstarter.autoconfigure.OperatorProperties;
import dev.operatorstarter.autoconfigure.OperatorStatus;
import dev.operatorstarter.autoconfigure.Reconciler;
import dev.operatorstarter.autoconfigure.RequestMapper;
import dev.operatorstarter.autoconfigure.Widget;
import dev.operatorstarter.autoconfigure.widgets.SecretMetadataToConfigMaps;
import dev.operatorstarter.autoconfigure.endpoint.OperatorEndpoint;
import dev.operatorstarter.autoconfigure.endpoint.OperatorEndpointAutoConfiguration;
import dev.operatorstarter.autoconfigure.health.OperatorHealthContributorAutoConfiguration;
import dev.operatorstarter.cache.InformerOptions;
import dev.operatorstarter.cache.Lister;
import dev.operatorstarter.cache.ObjectReader;
import dev.operatorstarter.cache.ReaderOptions;
import dev.operatorstarter.cache.SharedInformerFactory;
import dev.operatorstarter.client.KubernetesClient;
import dev.operatorstarter.client.config.ClientConfig;
import dev.operatorstarter.client.config.Credentials;
import dev.operatorstarter.client.config.TlsSettings;
import dev.operatorstarter.controller.Cleaner;
import dev.operatorstarter.controller.Controller;
import dev.operatorstarter.controller.ReconcileHandler;
import dev.operatorstarter.controller.ReconcileRequest;
import dev.operatorstarter.controller.ReconcileResult;
import dev.operatorstarter.event.EventBroadcaster;
import dev.operatorstarter.event.EventRecorder;
import dev.operatorstarter.event.EventType;
import dev.operatorstarter.leaderelection.LeaderElector;
import dev.operatorstarter.leaderelection.LeaseTiming;
import dev.operatorstarter.manager.Manager;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.PartialObjectMetadata;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.Secret;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import dev.operatorstarter.autoconfigure.InvalidReconcilerException;
import dev.operatorstarter.autoconfigure.wiring.scanned.AnnotatedTwiceSecretReconciler;
import dev.operatorstarter.autoconfigure.wiring.scanned.ScannedConfigMapReconciler;
import java.util.Objects;
import org.apache.commons.logging.LogFactory;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.autoconfigure.AutoConfigurationPackage;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.diagnostics.FailureAnalyzer;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.annotation.ComponentScan;
import org.springframework.context.annotation.Import;
import org.springframework.core.io.support.SpringFactoriesLoader;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.beans.factory.BeanDefinitionStoreException;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.SmartLifecycle;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.ResolvableType;

/** Every role auto-configuration together, as an application gets them. */
@ExtendWith(OutputCaptureExtension.class)
class OperatorAutoConfigurationTest {

    @TempDir
    Path folder;

    private ApplicationContextRunner runner() {
        return runner(folder);
    }

    /**
     * Every role auto-configuration, on a kubeconfig in {@code folder} whose server is not
     * reachable: start-up must not wait for caches, and no election runs.
     */
    static ApplicationContextRunner runner(Path folder) {
        return new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(OperatorMetricsAutoConfiguration.class,
                        OperatorClientAutoConfiguration.class, OperatorInformersAutoConfiguration.class,
                        OperatorEventsAutoConfiguration.class, OperatorLeaderElectionAutoConfiguration.class,
                        OperatorShardingAutoConfiguration.class, OperatorControllersAutoConfiguration.class,
                        OperatorPermissionCheckAutoConfiguration.class,
                        OperatorHealthContributorAutoConfiguration.class, OperatorEndpointAutoConfiguration.class))
                .withPropertyValues("operator.client.kubeconfig=" + Kubeconfigs.twoContexts(folder),
                        "operator.informers.wait-for-sync-on-startup=false");
    }

    @Test
    void thePermissionCheckIsOnByDefaultAndCanBeSwitchedOff() {
        runner().run(context -> assertThat(context).hasNotFailed().hasSingleBean(PermissionCheck.class));
        runner().withPropertyValues("operator.permission-check.enabled=false")
                .run(context -> assertThat(context).hasNotFailed().doesNotHaveBean(PermissionCheck.class)
                        .hasSingleBean(OperatorLifecycle.class));
    }

    @Test
    void thePermissionCheckBeginsEarlyOnlyWhenTheStartWaitsForItAndTheSync() {
        // the runner does not wait for the sync: the operator runs no check, so none begins
        runner().run(context -> assertThat(context).hasNotFailed().doesNotHaveBean(PermissionCheckStart.class));
        assertThat(PermissionCheckStart.PHASE).isLessThan(SmartLifecycle.DEFAULT_PHASE - 2048)
                .isLessThan(OperatorLifecycle.PHASE);
    }

    @Test
    void theEventsAndMetricsRolesCanBeLeftOutAndTheOthersStillWork() {
        new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(OperatorClientAutoConfiguration.class,
                        OperatorInformersAutoConfiguration.class, OperatorLeaderElectionAutoConfiguration.class,
                        OperatorControllersAutoConfiguration.class))
                .withPropertyValues("operator.client.kubeconfig=" + Kubeconfigs.twoContexts(folder),
                        "operator.informers.wait-for-sync-on-startup=false")
                .run(context -> assertThat(context).hasNotFailed().hasSingleBean(Manager.class)
                        .hasSingleBean(KubernetesClient.class).doesNotHaveBean(EventBroadcaster.class)
                        .doesNotHaveBean(OperatorMetrics.class));
    }

    @Test
    void backsOffCompletelyWhenTheOperatorIsDisabled() {
        runner().withPropertyValues("operator.enabled=false").run(context -> assertThat(context)
                .hasNotFailed().doesNotHaveBean(KubernetesClient.class).doesNotHaveBean(OperatorLifecycle.class)
                .doesNotHaveBean(KubernetesConnectionDetails.class));
    }

    @Test
    void connectsWithTheKubeconfigsCurrentContextByDefault() {
        runner().run(context -> {
            assertThat(context).hasNotFailed().hasSingleBean(KubernetesClient.class)
                    .hasSingleBean(SharedInformerFactory.class).hasSingleBean(EventRecorder.class)
                    .hasSingleBean(PropertiesKubernetesConnectionDetails.class);
            assertThat(context.getBean(Manager.class).leaderElector()).as("the manager elects").isPresent();
            ClientConfig config = context.getBean(ClientConfig.class);
            assertThat(config.server()).isEqualTo(URI.create("https://127.0.0.1:1"));
            assertThat(config.namespace()).isEqualTo("apps");
        });
    }

    @Test
    void contextAndNamespacePropertiesPickAnotherContextAndNamespace() {
        runner().withPropertyValues("operator.client.context=two", "operator.client.namespace=elsewhere")
                .run(context -> {
                    ClientConfig config = context.getBean(ClientConfig.class);
                    assertThat(config.server()).isEqualTo(URI.create("https://127.0.0.2:2"));
                    assertThat(config.namespace()).isEqualTo("elsewhere");
                    assertThat(config.source()).contains("two");
                });
    }

    @Test
    void propertiesBindWithTheirDocumentedDefaults() {
        runner().run(context -> {
            OperatorProperties properties = context.getBean(OperatorProperties.class);
            assertThat(properties.client().connectTimeout()).isEqualTo(Duration.ofSeconds(10));
            assertThat(properties.client().qps()).isZero();
            assertThat(properties.informers().cacheSyncTimeout()).isEqualTo(Duration.ofMinutes(2));
            assertThat(properties.informers().namespaces()).isEmpty();
            assertThat(properties.reader().uncached()).isEmpty();
            assertThat(properties.controllers().workers()).isEqualTo(1);
            assertThat(properties.controllers().rateLimiter().baseDelay()).isEqualTo(Duration.ofMillis(5));
            assertThat(properties.leaderElection().enabled()).isTrue();
            assertThat(properties.leaderElection().leaseDuration()).isEqualTo(Duration.ofSeconds(15));
            assertThat(properties.leaderElection().timing()).isEqualTo(LeaseTiming.defaults());
            assertThat(properties.leaderElection().onLost()).isEqualTo(OperatorProperties.OnLost.REELECT);
        });
        runner().withPropertyValues("operator.client.connect-timeout=3", "operator.informers.namespaces=a, b",
                "operator.leader-election.on-lost=shutdown", "operator.controllers.rate-limiter.max-delay=2m")
                .run(context -> {
                    OperatorProperties properties = context.getBean(OperatorProperties.class);
                    assertThat(properties.client().connectTimeout()).isEqualTo(Duration.ofSeconds(3));
                    assertThat(properties.informers().namespaces()).containsExactly("a", "b");
                    assertThat(properties.leaderElection().onLost()).isEqualTo(OperatorProperties.OnLost.SHUTDOWN);
                    assertThat(properties.controllers().rateLimiter().maxDelay()).isEqualTo(Duration.ofMinutes(2));
                });
    }

    @Test
    void sizeLimitPropertiesReachTheClientsOptions() {
        runner().run(context -> assertThat(context.getBean(KubernetesClient.class).rest().options())
                .extracting(o -> o.maxWatchEventBytes(), o -> o.maxResponseBytes(), o -> o.maxListResponseBytes())
                .containsExactly(16 * 1024 * 1024, 16 * 1024 * 1024, Integer.MAX_VALUE));
        runner().withPropertyValues("operator.client.max-watch-event-size=1MB", "operator.client.max-response-size=2MB",
                "operator.client.max-list-response-size=512MB")
                .run(context -> assertThat(context.getBean(KubernetesClient.class).rest().options())
                        .extracting(o -> o.maxWatchEventBytes(), o -> o.maxResponseBytes(), o -> o.maxListResponseBytes())
                        .containsExactly(1024 * 1024, 2 * 1024 * 1024, 512 * 1024 * 1024));
    }

    @Test
    void userConnectionDetailsReplaceTheProperties() {
        runner().withBean(KubernetesConnectionDetails.class, () -> () -> dev.operatorstarter.client.config.KubeconfigLoader
                .load(Kubeconfigs.twoContexts(folder), "two"))
                .run(context -> {
                    assertThat(context).doesNotHaveBean(PropertiesKubernetesConnectionDetails.class);
                    assertThat(context.getBean(ClientConfig.class).namespace()).isEqualTo("tools");
                });
    }

    @Test
    void everyAutoConfiguredBeanBacksOffWhenTheApplicationDefinesItsOwn() {
        runner().withUserConfiguration(OwnBeans.class).run(context -> {
            assertThat(context).hasNotFailed();
            assertThat(context.getBean(KubernetesClient.class)).isSameAs(context.getBean("ownClient"));
            assertThat(context.getBean(SharedInformerFactory.class)).isSameAs(context.getBean("ownFactory"));
            assertThat(context.getBean(EventRecorder.class)).isSameAs(context.getBean("ownRecorder"));
            assertThat(context.getBean(ObjectReader.class)).isSameAs(context.getBean("ownReader"));
            assertThat(context.getBean(ClientConfig.class)).isSameAs(context.getBean("ownConfig"));
        });
    }

    @Test
    void customizersShapeTheClientTheInformersAndEachController() {
        runner().withUserConfiguration(Customizers.class, WidgetReconcilerConfiguration.class).run(context -> {
            assertThat(context).hasNotFailed();
            Customizers customizers = context.getBean(Customizers.class);
            assertThat(customizers.calls).contains("client", "informers", "controller widget");
        });
    }

    @Test
    void thePriorityQueuePropertyReachesEachControllersOptions() {
        runner().withUserConfiguration(PriorityQueueProbe.class, WidgetReconcilerConfiguration.class).run(context -> {
            assertThat(context).hasNotFailed();
            assertThat(context.getBean(PriorityQueueProbe.class).seen).containsExactly(true);
        });
        runner().withUserConfiguration(PriorityQueueProbe.class, WidgetReconcilerConfiguration.class)
                .withPropertyValues("operator.controllers.priority-queue=false").run(context -> {
                    assertThat(context).hasNotFailed();
                    assertThat(context.getBean(PriorityQueueProbe.class).seen).containsExactly(false);
                });
    }

    @Test
    void aReconcilerBeanBecomesAControllerWithListersForEveryResourceItInformsOn() {
        runner().withUserConfiguration(WidgetReconcilerConfiguration.class, ListerUser.class).run(context -> {
            assertThat(context).hasNotFailed();
            assertThat(context.getBeanNamesForType(ResolvableType.forClassWithGenerics(Controller.class, Widget.class)))
                    .containsExactly("widgetReconcilerController");
            assertThat(context.getBean("widgetReconcilerController", Controller.class).name()).isEqualTo("widget");
            assertThat(context.getBeanNamesForType(ResolvableType.forClassWithGenerics(Lister.class, Widget.class)))
                    .hasSize(1);
            assertThat(context.getBeanNamesForType(ResolvableType.forClassWithGenerics(Lister.class, ConfigMap.class)))
                    .hasSize(1);
            assertThat(context.getBeanNamesForType(ResolvableType.forClassWithGenerics(Lister.class, Secret.class)))
                    .hasSize(1);
            assertThat(context.getBean(ListerUser.class).configMaps).isNotNull();
            assertThat(context.getBean(SharedInformerFactory.class).informers()).extracting(i -> i.name())
                    .containsExactlyInAnyOrder("widgets.starter.operatorstarter.dev", "configmaps", "secrets");
        });
    }

    @Test
    void theResourceIsInferredFromABeanMethodsGenericReturnType() {
        runner().withUserConfiguration(LambdaReconcilerConfiguration.class).run(context -> {
            assertThat(context).hasNotFailed();
            assertThat(context.getBeanNamesForType(ResolvableType.forClassWithGenerics(Controller.class, ConfigMap.class)))
                    .containsExactly("configMapReconcilerController");
            assertThat(context.getBean("configMapReconcilerController", Controller.class).name()).isEqualTo("settings");
        });
    }

    @Test
    void namespacesFromTheAnnotationResolvePlaceholdersAndGiveOneInformerEach() {
        runner().withPropertyValues("watched=blue, green").withUserConfiguration(NamespacedReconcilerConfiguration.class)
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    assertThat(context.getBean(SharedInformerFactory.class).informers()).extracting(i -> i.name())
                            .containsExactlyInAnyOrder("configmaps/blue [app=web]", "configmaps/green [app=web]");
                });
    }

    @Test
    void aReconcilerWhoseResourceCannotBeInferredFailsNamingTheBeanAndTheFix() {
        runner().withUserConfiguration(RawReconcilerConfiguration.class).run(context -> {
            assertThat(context).hasFailed();
            assertThat(context.getStartupFailure()).isInstanceOf(BeanDefinitionStoreException.class)
                    .hasMessageContaining("'raw'").hasMessageContaining("@Reconciler(resource = YourResource.class)");
        });
    }

    @Test
    void aReconcilerClassWithoutComponentIsFoundByScanningAndGetsItsController() {
        runner().withUserConfiguration(ScanningConfiguration.class).run(context -> {
            assertThat(context).hasNotFailed().hasSingleBean(ScannedConfigMapReconciler.class)
                    .hasSingleBean(AnnotatedTwiceSecretReconciler.class);
            assertThat(context.getBeanNamesForType(ResolvableType.forClassWithGenerics(Controller.class, ConfigMap.class)))
                    .containsExactly("scannedConfigMapReconcilerController");
            // @Component beside @Reconciler is redundant now, and still makes one bean and one controller
            assertThat(context.getBeanNamesForType(ResolvableType.forClassWithGenerics(Controller.class, Secret.class)))
                    .containsExactly("annotatedTwiceSecretReconcilerController");
            assertThat(context.getBean(Manager.class).controllers()).extracting(status -> status.name())
                    .containsExactlyInAnyOrder("configmap", "secret");
        });
    }

    @Test
    void withoutAnyReconcilerBeanStartUpWarnsAndNamesTheAnnotatedClassesThatAreNotBeans(CapturedOutput output) {
        runner().withUserConfiguration(PackageWithoutScanningConfiguration.class).run(context -> {
            assertThat(context).hasNotFailed();
            assertThat(context.getBean(Manager.class).controllers()).isEmpty();
        });
        assertThat(output).contains("No @Reconciler bean found, so the operator runs no controller")
                .contains("are not beans: ").contains(ScannedConfigMapReconciler.class.getName())
                .contains(AnnotatedTwiceSecretReconciler.class.getName()).contains("@Import them");
    }

    @Test
    void aReconcilerThatDoesNotImplementReconcileHandlerFailsNamingTheBeanItsClassAndTheFix() {
        runner().withUserConfiguration(NotAHandlerConfiguration.class).run(context -> {
            assertThat(context).hasFailed();
            assertThat(context.getStartupFailure()).isInstanceOf(InvalidReconcilerException.class)
                    .hasMessageContaining("@Reconciler bean '" + NotAHandler.class.getName() + "' ("
                            + NotAHandler.class.getName() + ")")
                    .hasMessageContaining("does not implement dev.operatorstarter.controller.ReconcileHandler")
                    .hasMessageContaining("implement ReconcileHandler<Widget>");
            FailureAnalysis analysis = analyze(context.getStartupFailure());
            assertThat(analysis.getDescription()).isEqualTo("The @Reconciler bean '" + NotAHandler.class.getName()
                    + "' (" + NotAHandler.class.getName() + ") does not implement dev.operatorstarter.controller.ReconcileHandler,"
                    + " so there is nothing to call for a reconcile.");
            assertThat(analysis.getAction()).isEqualTo("Implement ReconcileHandler<Widget>.");
        });
        runner().withUserConfiguration(NotAHandlerMethodConfiguration.class).run(context -> assertThat(
                context.getStartupFailure()).isInstanceOf(InvalidReconcilerException.class)
                .hasMessageContaining("@Reconciler bean 'settings' (java.lang.String)")
                .hasMessageContaining("(a @Bean method: return ReconcileHandler<ConfigMap>)"));
    }

    /** What Spring Boot prints: the first registered analyzer that understands the failure. */
    static FailureAnalysis analyze(Throwable failure) {
        return SpringFactoriesLoader.forDefaultResourceLocation().load(FailureAnalyzer.class,
                        SpringFactoriesLoader.FailureHandler.logging(LogFactory.getLog(OperatorAutoConfigurationTest.class)))
                .stream().map(analyzer -> analyzer.analyze(failure)).filter(Objects::nonNull).findFirst()
                .orElseThrow(() -> new AssertionError("no failure analyzer explains " + failure));
    }

    @Test
    void twoReconcilersWithTheSameControllerNameFail() {
        runner().withUserConfiguration(WidgetReconcilerConfiguration.class, SecondWidgetReconcilerConfiguration.class)
                .run(context -> assertThat(context.getStartupFailure()).hasMessageContaining("both name their controller 'widget'"));
    }

    @Test
    void anOwnedTypeCanBeCachedAsMetadataOnlyWithAListerOfItsOwn() {
        runner().withUserConfiguration(MetadataOwnerConfiguration.class).run(context -> {
            assertThat(context).hasNotFailed();
            assertThat(context.getBean("secretMetadataLister")).isInstanceOf(Lister.class);
            assertThat(context.getBeanNamesForType(ResolvableType.forClassWithGenerics(Lister.class,
                    PartialObjectMetadata.class))).containsExactly("secretMetadataLister");
            assertThat(context.getBeanNamesForType(ResolvableType.forClassWithGenerics(Lister.class, Secret.class)))
                    .as("no full cache of the type").isEmpty();
            assertThat(context.getBean(SharedInformerFactory.class).informers()).extracting(i -> i.name())
                    .containsExactlyInAnyOrder("configmaps", "secrets (metadata)");
        });
        runner().withUserConfiguration(OwnedTwiceConfiguration.class).run(context -> assertThat(context
                .getStartupFailure()).hasMessageContaining("has " + Secret.class.getName() + " in both owns and ownsMetadata"));
    }

    @Test
    void twoResourcesOfOneSimpleNameCachedAsMetadataGetAMetadataListerEach() {
        runner().withUserConfiguration(SameSimpleNameMetadataConfiguration.class).run(context -> {
            assertThat(context).hasNotFailed();
            assertThat(context.getBeanNamesForType(ResolvableType.forClassWithGenerics(Lister.class,
                    PartialObjectMetadata.class))).containsExactly("secretMetadataLister",
                            dev.operatorstarter.autoconfigure.wiring.other.Secret.class.getName() + ".metadataLister");
            assertThat(context.getBean("secretMetadataLister")).isNotSameAs(context.getBean(
                    dev.operatorstarter.autoconfigure.wiring.other.Secret.class.getName() + ".metadataLister"));
            assertThat(context.getBean(SharedInformerFactory.class).informers()).extracting(i -> i.name())
                    .containsExactlyInAnyOrder("configmaps", "secrets (metadata)",
                            "secrets.other.operatorstarter.dev (metadata)");
        });
    }

    @Test
    void aWatchedTypeCanBeCachedAsMetadataOnlyWithAListerOfItsOwnAndTheResourcesSelectors() {
        runner().withUserConfiguration(MetadataWatcherConfiguration.class)
                .withPropertyValues("operator.informers.resources.secrets.label-selector=app=web").run(context -> {
                    assertThat(context).hasNotFailed();
                    assertThat(context.getBeanNamesForType(ResolvableType.forClassWithGenerics(Lister.class,
                            PartialObjectMetadata.class))).containsExactly("secretMetadataLister");
                    assertThat(context.getBeanNamesForType(ResolvableType.forClassWithGenerics(Lister.class,
                            Secret.class))).as("no full cache of the type").isEmpty();
                    assertThat(context.getBean(SharedInformerFactory.class).informers()).extracting(i -> i.name())
                            .containsExactlyInAnyOrder("configmaps", "secrets [app=web] (metadata)");
                    assertThat(context.getBean(Manager.class).controllers()).extracting(s -> s.name())
                            .containsExactly("configmap");
                });
    }

    @Test
    void aTypeOneReconcilerCachesBothInFullAndAsMetadataFailsNamingBothAttributes() {
        runner().withUserConfiguration(WatchedTwiceConfiguration.class).run(context -> assertThat(context
                .getStartupFailure()).hasMessageContaining("has " + Secret.class.getName() + " in both watches and "
                        + "watchesMetadata; keep it in one (watchesMetadata caches only its metadata, watches whole objects)"));
        runner().withUserConfiguration(OwnedAndWatchedAsMetadataConfiguration.class).run(context -> assertThat(context
                .getStartupFailure()).hasMessageContaining("in both owns and watchesMetadata"));
    }

    @Test
    void aMetadataRequestMapperWhoseResourceCannotBeInferredFailsNamingTheFix() {
        runner().withUserConfiguration(RawMetadataMapperConfiguration.class).run(context -> assertThat(context
                .getStartupFailure()).isInstanceOf(BeanDefinitionStoreException.class)
                .hasMessageContaining(RawMetadataMapper.class.getName())
                .hasMessageContaining("declare it as MetadataRequestMapper<TheWatchedResource>"));
    }

    @Test
    void theReaderTakesTheUncachedResourcesWhichMustBeOnesAReconcilerCachesInFull() {
        runner().withUserConfiguration(WidgetReconcilerConfiguration.class)
                .withPropertyValues("operator.reader.uncached=secrets, configmaps").run(context -> {
                    assertThat(context).hasNotFailed().hasSingleBean(ObjectReader.class);
                    assertThat(context.getBean(OperatorProperties.class).reader().uncached())
                            .containsExactly("secrets", "configmaps");
                });
        runner().withUserConfiguration(WidgetReconcilerConfiguration.class)
                .withPropertyValues("operator.reader.uncached=secret").run(context -> assertThat(context
                        .getStartupFailure()).rootCause().hasMessageContaining("operator.reader.uncached names 'secret'")
                        .hasMessageContaining("configmaps, secrets, widgets.starter.operatorstarter.dev"));
        runner().withUserConfiguration(MetadataOwnerConfiguration.class)
                .withPropertyValues("operator.reader.uncached=secrets").run(context -> assertThat(context
                        .getStartupFailure()).rootCause().hasMessageContaining("which no reconciler caches in full"));
    }

    @Test
    void eachResourceCanHaveSelectorsOfItsOwnAndAReconcilersOwnedLabelSelectorComesFirst() {
        runner().withUserConfiguration(MetadataOwnerConfiguration.class)
                .withPropertyValues("operator.informers.resources.secrets.label-selector=app=web",
                        "operator.informers.resources.secrets.field-selector=type!=kubernetes.io/tls",
                        "operator.informers.resources.configmaps.field-selector=metadata.name!=skipped")
                .run(context -> assertThat(context.getBean(SharedInformerFactory.class).informers())
                        .extracting(i -> i.name()).containsExactlyInAnyOrder("configmaps [metadata.name!=skipped]",
                                "secrets [app=web;type!=kubernetes.io/tls] (metadata)"));
        runner().withUserConfiguration(OwnedLabelSelectorConfiguration.class)
                .withPropertyValues("operator.informers.resources.secrets.label-selector=app=web")
                .run(context -> assertThat(context.getBean(SharedInformerFactory.class).informers())
                        .extracting(i -> i.name())
                        .containsExactlyInAnyOrder("configmaps", "secrets [managed-by=widget-operator]"));
    }

    @Test
    void aResourceNameNoReconcilerInformsOnFailsStartUpNamingTheKnownOnes() {
        runner().withUserConfiguration(MetadataOwnerConfiguration.class)
                .withPropertyValues("operator.informers.resources.secret.label-selector=app=web")
                .run(context -> assertThat(context.getStartupFailure()).rootCause()
                        .hasMessageContaining("selectors were given for 'secret', which no controller of the manager caches")
                        .hasMessageContaining("configmaps, secrets"));
    }

    @Test
    void aFinalizerNeedsACleaner() {
        runner().withUserConfiguration(FinalizerWithoutCleanerConfiguration.class).run(context -> assertThat(context
                .getStartupFailure()).isInstanceOf(InvalidReconcilerException.class)
                .hasMessageContaining("needs the bean to implement " + Cleaner.class.getName()));
    }

    @Test
    void generatedBeanNamesGiveWayToTheApplicationsBeans() {
        runner().withUserConfiguration(LambdaReconcilerConfiguration.class)
                .withBean("configMapLister", String.class, () -> "the application's own bean")
                .withBean("configMapReconcilerController", String.class, () -> "another one").run(context -> {
                    assertThat(context).hasNotFailed();
                    assertThat(context.getBean("configMapLister")).isEqualTo("the application's own bean");
                    assertThat(context.getBean(ConfigMap.class.getName() + ".lister")).isInstanceOf(Lister.class);
                    assertThat(context.getBean("configMapReconciler.controller")).isInstanceOf(Controller.class);
                    assertThat(context.getBean(Manager.class).controllers()).extracting(s -> s.name())
                            .containsExactly("settings");
                });
    }

    @Test
    void anApplicationsOwnLeaderElectorIsNotTheOneThatGatesTheControllers() {
        runner().withPropertyValues("operator.leader-election.enabled=false")
                .withBean("batchElector", LeaderElector.class, () -> new LeaderElector(
                        dev.operatorstarter.leaderelection.LeaderElectionConfig.builder(
                                dev.operatorstarter.leaderelection.LeaseLock.of(KubernetesClient.create(new ClientConfig(
                                        URI.create("https://127.0.0.9:9"), TlsSettings.defaults(), Credentials.none(),
                                        null, "x", "a test")), "x", "batch", "me"),
                                leadership -> { }).build()))
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    assertThat(context.getBean(OperatorStatus.class).leaderElection().enabled()).isFalse();
                });
    }

    @Test
    void leaderElectionCanBeSwitchedOffAndDefaultsTheLeaseFromTheApplication() {
        runner().withPropertyValues("spring.application.name=widgets").run(context -> {
            LeaseSettings lease = context.getBean(LeaseSettings.class);
            assertThat(lease.name()).isEqualTo("widgets-leader");
            assertThat(lease.namespace()).isEqualTo("apps");
            assertThat(lease.identity()).contains("_");
        });
        runner().withPropertyValues("operator.leader-election.enabled=false").run(context -> {
            assertThat(context).hasNotFailed().doesNotHaveBean(LeaderElector.class).doesNotHaveBean(LeaseSettings.class);
            assertThat(context.getBean(Manager.class).leaderElector()).isEmpty();
        });
    }

    @Test
    void outsideAClusterTheLeaseGoesToTheKubeconfigContextsNamespaceElseDefaultWithoutAnyProperty() {
        // as client-go's clientcmd: the context's namespace, else "default"; never the pod's
        // service-account namespace file, which does not exist outside a cluster
        runner().run(context -> assertThat(context.getBean(LeaseSettings.class).namespace()).isEqualTo("apps"));
        runner().withPropertyValues("operator.client.kubeconfig=" + Kubeconfigs.noNamespace(folder))
                .run(context -> assertThat(context.getBean(LeaseSettings.class).namespace()).isEqualTo("default"));
        runner().withPropertyValues("operator.client.namespace=team-a")
                .run(context -> assertThat(context.getBean(LeaseSettings.class).namespace()).isEqualTo("team-a"));
    }

    @Test
    void withoutEventsTheRecorderDropsEverythingQuietly() {
        runner().withPropertyValues("operator.events.enabled=false").run(context -> {
            assertThat(context).doesNotHaveBean(EventBroadcaster.class).hasSingleBean(EventRecorder.class);
            context.getBean(EventRecorder.class).event(new ConfigMapBuilder().withNewMetadata().withName("x")
                    .endMetadata().build(), EventType.NORMAL, "Tested", "Test", "nothing is written");
        });
    }

    @Test
    void metricsGoToTheApplicationsMeterRegistryUnlessSwitchedOff() {
        runner().withBean(MeterRegistry.class, SimpleMeterRegistry::new).withUserConfiguration(WidgetReconcilerConfiguration.class)
                .run(context -> {
                    assertThat(context.getBean(OperatorMetrics.class)).isNotEqualTo(OperatorMetrics.none());
                    assertThat(context.getBean(MeterRegistry.class).find("informer.store.size").meters()).isNotEmpty();
                });
        runner().withBean(MeterRegistry.class, SimpleMeterRegistry::new).withPropertyValues("operator.metrics.enabled=false")
                .run(context -> assertThat(context.getBean(OperatorMetrics.class)).isEqualTo(OperatorMetrics.none()));
        runner().withClassLoader(new FilteredClassLoader(MeterRegistry.class))
                .run(context -> assertThat(context.getBean(OperatorMetrics.class)).isEqualTo(OperatorMetrics.none()));
    }

    @Test
    void healthIndicatorsAreContributedUnlessDisabledOrActuatorIsMissing() {
        runner().run(context -> assertThat(context).hasBean("informersHealthIndicator")
                .hasBean("controllersHealthIndicator").hasBean("leaderElectionHealthIndicator"));
        runner().withPropertyValues("management.health.operator.enabled=false").run(context -> assertThat(context)
                .doesNotHaveBean("informersHealthIndicator").doesNotHaveBean("controllersHealthIndicator"));
        runner().withClassLoader(new FilteredClassLoader(HealthIndicator.class))
                .run(context -> assertThat(context).hasNotFailed().doesNotHaveBean("informersHealthIndicator"));
    }

    @Test
    void theOperatorEndpointExistsOnlyWhenExposed() {
        runner().run(context -> assertThat(context).doesNotHaveBean(OperatorEndpoint.class));
        runner().withPropertyValues("management.endpoints.web.exposure.include=operator")
                .run(context -> assertThat(context).hasSingleBean(OperatorEndpoint.class));
    }

    @Test
    @Tag("java21") // run on a Java 21+ JVM by the build when it finds one (docs/testing/this-project.md)
    void workersRunOnVirtualThreadsWhenSpringAsksForThemOnJava21() {
        assumeThat(Runtime.version().feature()).as("virtual threads need Java 21").isGreaterThanOrEqualTo(21);
        runner().withPropertyValues("spring.threads.virtual.enabled=true", "operator.leader-election.enabled=false")
                .run(context -> {
                    Thread worker = context.getBean(ReconcilerControllers.class).workerThreads().newThread(() -> { });
                    assertThat(isVirtual(worker)).isTrue();
                });
        runner().run(context -> {
            Thread worker = context.getBean(ReconcilerControllers.class).workerThreads().newThread(() -> { });
            assertThat(isVirtual(worker)).isFalse();
            assertThat(worker.isDaemon()).isTrue();
        });
    }

    /** {@code Thread.isVirtual()}, which Java 17 lacks (it has no virtual threads). */
    private static boolean isVirtual(Thread thread) throws ReflectiveOperationException {
        try {
            return (Boolean) Thread.class.getMethod("isVirtual").invoke(thread);
        } catch (NoSuchMethodException e) {
            return false;
        }
    }

    // --- configurations ---

    @Configuration(proxyBeanMethods = false)
    static class OwnBeans {
        @Bean
        ClientConfig ownConfig() {
            return new ClientConfig(URI.create("https://127.0.0.9:9"), TlsSettings.defaults(), Credentials.none(), null,
                    "own", "a test");
        }

        @Bean(destroyMethod = "close")
        KubernetesClient ownClient(ClientConfig ownConfig) {
            return KubernetesClient.create(ownConfig);
        }

        @Bean(destroyMethod = "close")
        SharedInformerFactory ownFactory(KubernetesClient ownClient) {
            return new SharedInformerFactory(ownClient, InformerOptions.defaults());
        }

        @Bean
        ObjectReader ownReader(SharedInformerFactory ownFactory) {
            return ObjectReader.of(ownFactory, ReaderOptions.defaults());
        }

        @Bean
        EventRecorder ownRecorder() {
            return (regarding, type, reason, action, note) -> { };
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class Customizers {
        final List<String> calls = new ArrayList<>();

        @Bean
        KubernetesClientCustomizer clientCustomizer() {
            return options -> calls.add("client");
        }

        @Bean
        InformerCustomizer informerCustomizer() {
            return options -> calls.add("informers");
        }

        @Bean
        ControllerCustomizer controllerCustomizer() {
            return (name, options) -> calls.add("controller " + name);
        }
    }

    /** Reads, from the options a customizer is given, whether the controller's queue is a priority queue. */
    @Configuration(proxyBeanMethods = false)
    static class PriorityQueueProbe {
        final List<Boolean> seen = new ArrayList<>();

        @Bean
        ControllerCustomizer priorityQueueProbe() {
            return (name, options) -> seen.add(options.build().priorityQueue());
        }
    }

    /** Reconciles Widgets, owns ConfigMaps, watches Secrets. */
    @Reconciler(owns = ConfigMap.class, watches = SecretsToWidgets.class, generationChanged = true)
    static class WidgetReconciler implements ReconcileHandler<Widget> {
        @Override
        public ReconcileResult reconcile(ReconcileRequest request) {
            return ReconcileResult.done();
        }
    }

    static class SecretsToWidgets implements RequestMapper<Secret> {
        @Override
        public java.util.Collection<ReconcileRequest> map(Secret secret) {
            return List.of(new ReconcileRequest(secret.getMetadata().getNamespace(), secret.getMetadata().getName()));
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class WidgetReconcilerConfiguration {
        @Bean
        WidgetReconciler widgetReconciler() {
            return new WidgetReconciler();
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class SecondWidgetReconcilerConfiguration {
        @Bean
        @Reconciler
        ReconcileHandler<Widget> anotherWidgetReconciler() {
            return request -> ReconcileResult.done();
        }
    }

    static class ListerUser {
        final Lister<ConfigMap> configMaps;

        ListerUser(Lister<ConfigMap> configMaps) {
            this.configMaps = configMaps;
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class LambdaReconcilerConfiguration {
        @Bean
        @Reconciler(name = "settings")
        ReconcileHandler<ConfigMap> configMapReconciler() {
            return request -> ReconcileResult.done();
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class MetadataOwnerConfiguration {
        @Bean
        @Reconciler(ownsMetadata = Secret.class)
        ReconcileHandler<ConfigMap> configMapReconciler() {
            return request -> ReconcileResult.done();
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class SameSimpleNameMetadataConfiguration {
        @Bean
        @Reconciler(ownsMetadata = {Secret.class, dev.operatorstarter.autoconfigure.wiring.other.Secret.class})
        ReconcileHandler<ConfigMap> configMapReconciler() {
            return request -> ReconcileResult.done();
        }
    }

    @SuppressWarnings("rawtypes")
    static class RawMetadataMapper implements MetadataRequestMapper {
        @Override
        public java.util.Collection<ReconcileRequest> map(PartialObjectMetadata object) {
            return List.of();
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class MetadataWatcherConfiguration {
        @Bean
        @Reconciler(watchesMetadata = SecretMetadataToConfigMaps.class)
        ReconcileHandler<ConfigMap> configMapReconciler() {
            return request -> ReconcileResult.done();
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class WatchedTwiceConfiguration {
        @Bean
        @Reconciler(watches = SecretsToWidgets.class, watchesMetadata = SecretMetadataToConfigMaps.class)
        ReconcileHandler<ConfigMap> configMapReconciler() {
            return request -> ReconcileResult.done();
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class OwnedAndWatchedAsMetadataConfiguration {
        @Bean
        @Reconciler(owns = Secret.class, watchesMetadata = SecretMetadataToConfigMaps.class)
        ReconcileHandler<ConfigMap> configMapReconciler() {
            return request -> ReconcileResult.done();
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class RawMetadataMapperConfiguration {
        @Bean
        @Reconciler(watchesMetadata = RawMetadataMapper.class)
        ReconcileHandler<ConfigMap> configMapReconciler() {
            return request -> ReconcileResult.done();
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class OwnedLabelSelectorConfiguration {
        @Bean
        @Reconciler(owns = Secret.class, ownedLabelSelector = "managed-by=widget-operator")
        ReconcileHandler<ConfigMap> configMapReconciler() {
            return request -> ReconcileResult.done();
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class OwnedTwiceConfiguration {
        @Bean
        @Reconciler(owns = Secret.class, ownsMetadata = Secret.class)
        ReconcileHandler<ConfigMap> configMapReconciler() {
            return request -> ReconcileResult.done();
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class NamespacedReconcilerConfiguration {
        @Bean
        @Reconciler(namespaces = "${watched}", labelSelector = "app = web")
        ReconcileHandler<ConfigMap> configMapReconciler() {
            return request -> ReconcileResult.done();
        }
    }

    @Configuration(proxyBeanMethods = false)
    @ComponentScan(basePackageClasses = ScannedConfigMapReconciler.class)
    static class ScanningConfiguration {
    }

    /** The application's package is that of the scanned reconcilers, but nothing scans it. */
    @Configuration(proxyBeanMethods = false)
    @AutoConfigurationPackage(basePackageClasses = ScannedConfigMapReconciler.class)
    static class PackageWithoutScanningConfiguration {
    }

    /** Carries {@code @Reconciler} and names its resource, but has no reconcile method. */
    @Reconciler(resource = Widget.class)
    static class NotAHandler {
    }

    @Configuration(proxyBeanMethods = false)
    @Import(NotAHandler.class)
    static class NotAHandlerConfiguration {
    }

    @Configuration(proxyBeanMethods = false)
    static class NotAHandlerMethodConfiguration {
        @Bean
        @Reconciler(resource = ConfigMap.class)
        String settings() {
            return "not a handler";
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class RawReconcilerConfiguration {
        @Bean
        @Reconciler
        @SuppressWarnings("rawtypes")
        ReconcileHandler raw() {
            return request -> ReconcileResult.done();
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class FinalizerWithoutCleanerConfiguration {
        @Bean
        @Reconciler(finalizer = "starter.operatorstarter.dev/cleanup")
        ReconcileHandler<Widget> widgetReconciler() {
            return request -> ReconcileResult.done();
        }
    }
}
