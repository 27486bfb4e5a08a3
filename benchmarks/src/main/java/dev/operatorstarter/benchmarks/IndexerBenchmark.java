package dev.operatorstarter.benchmarks;

import dev.operatorstarter.cache.IndexFunction;
import dev.operatorstarter.cache.Indexer;
import io.fabric8.kubernetes.api.model.ConfigMap;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/** Reads of our indexer holding 10,000 ConfigMaps in 100 namespaces: by key, and by the namespace index. */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class IndexerBenchmark {

    private static final int OBJECTS = 10_000;
    private static final int NAMESPACES = 100;
    private final Indexer<ConfigMap> indexer = Indexer.create();
    private final String[] keys = new String[OBJECTS];

    @Setup
    public void fill() {
        for (int i = 0; i < OBJECTS; i++) {
            ConfigMap configMap = Dataset.configMap(i);
            configMap.getMetadata().setNamespace("ns-" + (i % NAMESPACES));
            indexer.add(configMap);
            keys[i] = "ns-" + (i % NAMESPACES) + "/" + configMap.getMetadata().getName();
        }
    }

    @Benchmark
    public Optional<ConfigMap> getByKey() {
        return indexer.get(keys[ThreadLocalRandom.current().nextInt(OBJECTS)]);
    }

    @Benchmark
    public List<ConfigMap> byNamespaceIndex() {
        return indexer.byIndex(IndexFunction.NAMESPACE, "ns-" + ThreadLocalRandom.current().nextInt(NAMESPACES));
    }
}
