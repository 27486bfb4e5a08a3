package dev.operatorstarter.autoconfigure.wiring;

import dev.operatorstarter.autoconfigure.InformerCustomizer;
import dev.operatorstarter.autoconfigure.OperatorProperties;
import dev.operatorstarter.autoconfigure.wiring.ReconcilerRegistrar.ReconcilerDefinitions;
import dev.operatorstarter.cache.InformerOptions;
import dev.operatorstarter.cache.ObjectReader;
import dev.operatorstarter.cache.ReaderOptions;
import dev.operatorstarter.cache.SharedInformerFactory;
import dev.operatorstarter.cache.Transforms;
import dev.operatorstarter.client.KubernetesClient;
import dev.operatorstarter.client.ResourceType;
import io.fabric8.kubernetes.api.model.HasMetadata;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.UnaryOperator;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;

/**
 * The informers: the {@link ReconcilerRegistrar} that finds the {@code @Reconciler} beans and
 * registers a controller and listers for each, the {@link SharedInformerFactory} (shaped by
 * {@code operator.informers.*} and every {@link InformerCustomizer}), and the {@link ObjectReader}
 * over them ({@code operator.reader.*}).
 */
@AutoConfiguration(after = { OperatorClientAutoConfiguration.class, OperatorMetricsAutoConfiguration.class })
@ConditionalOnBooleanProperty(name = "operator.enabled", matchIfMissing = true)
@EnableConfigurationProperties(OperatorProperties.class)
public final class OperatorInformersAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean
    static ReconcilerRegistrar operatorReconcilerRegistrar() {
        return new ReconcilerRegistrar();
    }

    @Bean(destroyMethod = "close")
    @ConditionalOnMissingBean
    SharedInformerFactory sharedInformerFactory(KubernetesClient client, OperatorProperties properties,
            ObjectProvider<OperatorMetrics> metrics, ObjectProvider<InformerCustomizer> customizers) {
        InformerOptions.Builder options = InformerOptions.builder()
                .resyncPeriod(properties.informers().resyncPeriod()).metrics(OperatorMetrics.of(metrics).reflectors());
        options.transform(transform(properties.informers()));
        customizers.orderedStream().forEach(customizer -> customizer.customize(options));
        return new SharedInformerFactory(client, options.build());
    }

    /** The transform the informer properties ask for; {@link Transforms#defaults()} for both. */
    static UnaryOperator<HasMetadata> transform(OperatorProperties.Informers informers) {
        if (informers.stripManagedFields() && informers.compactObjects()) {
            return Transforms.defaults();
        }
        if (informers.compactObjects()) {
            return Transforms.compact();
        }
        return informers.stripManagedFields() ? Transforms.stripManagedFields() : Transforms.none();
    }

    /**
     * One reader for every type: an informer's cache where it holds the answer, else the API
     * server; {@code operator.reader.uncached} resources always from the server.
     */
    @Bean
    @ConditionalOnMissingBean
    ObjectReader objectReader(SharedInformerFactory factory, ReconcilerDefinitions definitions,
            OperatorProperties properties, ObjectProvider<OperatorMetrics> metrics) {
        ReaderOptions.Builder options = ReaderOptions.builder().metrics(OperatorMetrics.of(metrics).reads());
        Set<String> cached = new TreeSet<>(); // only what a reconciler caches in full is read from a cache at all
        definitions.all().forEach(definition -> definition.informedResources()
                .forEach(type -> cached.add(ResourceType.of(type).groupVersionResource().groupResource())));
        for (String name : properties.reader().uncached()) {
            if (!cached.contains(name.strip())) {
                throw new IllegalStateException("operator.reader.uncached names '" + name.strip() + "', which no "
                        + "reconciler caches in full (its reads go to the API server anyway); the names are "
                        + "plural[.group]: " + (cached.isEmpty() ? "(none)" : String.join(", ", cached)));
            }
            options.uncached(name.strip());
        }
        return ObjectReader.of(factory, options.build());
    }
}
