package dev.operatorstarter.benchmarks;

import dev.operatorstarter.cache.Transforms;
import dev.operatorstarter.client.KubernetesClient;
import dev.operatorstarter.client.KubernetesJson;
import dev.operatorstarter.client.ResourceClient;
import dev.operatorstarter.client.rest.ListOptions;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.PartialObjectMetadata;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;
import org.openjdk.jol.info.GraphLayout;

/**
 * Where the bytes of one cached object go: the objects only it holds, by class. Each object is
 * decoded from the same JSON an informer decodes, through the same transform; the figure is what
 * one more object of the kind costs: everything it references minus what a few of its kind, decoded
 * through the same transform before it, hold already (strings and collections shared through the
 * transform's pool count once, for the first). Sizes from JOL, for this JVM's object layout.
 */
final class CacheHistogram {

    /** Objects of the kind decoded before the measured one. */
    private static final int OTHERS = 8;
    /** Classes named in a histogram; the rest are summed in one row. */
    private static final int TOP = 12;

    private CacheHistogram() {
    }

    /** One class's share of the measured object. */
    record Row(String type, long count, long bytes) {
    }

    /**
     * The classes of one more object decoded from {@code json} (at least {@link #OTHERS} + 1
     * encoded objects of one kind) as {@code type}, through a transform from {@code transforms}.
     */
    static List<Row> marginal(List<byte[]> json, Class<? extends HasMetadata> type,
            Supplier<UnaryOperator<HasMetadata>> transforms) {
        if (json.size() <= OTHERS) {
            throw new IllegalArgumentException("need at least " + (OTHERS + 1) + " objects, got " + json.size());
        }
        UnaryOperator<HasMetadata> transform = transforms.get();
        Object[] others = new Object[OTHERS];
        for (int i = 0; i < OTHERS; i++) {
            others[i] = transform.apply(KubernetesJson.mapper().readValue(json.get(i), type));
        }
        Object measured = transform.apply(KubernetesJson.mapper().readValue(json.get(OTHERS), type));
        GraphLayout layout = GraphLayout.parseInstance(measured).subtract(GraphLayout.parseInstance(others));
        List<Row> rows = new ArrayList<>();
        for (Class<?> c : layout.getClasses()) {
            rows.add(new Row(shortName(c), layout.getClassCounts().count(c), layout.getClassSizes().count(c)));
        }
        rows.sort(Comparator.comparingLong(Row::bytes).reversed().thenComparing(Row::type));
        return rows;
    }

    /** A markdown table of {@code rows}: the largest {@link #TOP} classes, the rest in one row, and the total. */
    static String table(String title, List<Row> rows) {
        return table(title, "objects", rows, TOP);
    }

    /**
     * A markdown table of {@code rows}, largest first: the first {@code limit}, the rest summed in one
     * row, and the total. Also {@link HeapHistogram}'s, whose differences may be negative.
     */
    static String table(String title, String countHeader, List<Row> rows, int limit) {
        StringBuilder table = new StringBuilder("| " + title + " | " + countHeader + " | bytes |\n|---|---|---|\n");
        long count = 0;
        long bytes = 0;
        long otherCount = 0;
        long otherBytes = 0;
        for (int i = 0; i < rows.size(); i++) {
            Row row = rows.get(i);
            count += row.count();
            bytes += row.bytes();
            if (i < limit) {
                table.append(String.format(Locale.ROOT, "| `%s` | %,d | %,d |%n", row.type(), row.count(), row.bytes()));
            } else {
                otherCount += row.count();
                otherBytes += row.bytes();
            }
        }
        if (rows.size() > limit) {
            table.append(String.format(Locale.ROOT, "| %,d other classes | %,d | %,d |%n", rows.size() - limit,
                    otherCount, otherBytes));
        }
        table.append(String.format(Locale.ROOT, "| **total** | %,d | **%,d** |%n", count, bytes));
        return table.toString();
    }

    /** The class name without the packages every reader knows. */
    static String shortName(Class<?> type) {
        if (type.isArray()) {
            return shortName(type.getComponentType()) + "[]";
        }
        String name = type.getName();
        for (String prefix : List.of("io.fabric8.kubernetes.api.model.", "java.lang.", "java.util.",
                "dev.operatorstarter.cache.")) {
            if (name.startsWith(prefix)) {
                return name.substring(prefix.length());
            }
        }
        return name;
    }

    /**
     * The benchmark section: for each kind of {@code curve}, the histograms of one object as the API
     * server returns it from the namespace of the smallest workload that holds enough objects, cached
     * in full with the default transform and with none, and as metadata with the default transform.
     */
    static String section(KubernetesClient client, ScaleCurve curve) {
        StringBuilder section = new StringBuilder("### Where the bytes of one cached object go\n\n"
                + "What one more cached object costs, by class: everything it references minus what " + OTHERS
                + " objects of its kind decoded through the same transform before it hold already (so strings and "
                + "collections shared through the transform's pool count once, for the first). Objects as the API "
                + "server returns them from the benchmark's namespaces, managedFields included before the transform; "
                + "sizes from JOL for this JVM's layout. The indexer's key and index entries (about 150 B per "
                + "object) are not included.\n\n");
        for (Workload.Kind kind : curve.kinds()) {
            Class<? extends HasMetadata> type = kind.type();
            String name = type.getSimpleName();
            Optional<Workload> sampled = sampled(curve, kind);
            if (sampled.isEmpty()) {
                section.append("No ").append(name).append(" histograms: no workload holds the ").append(OTHERS + 1)
                        .append(" objects they need.\n\n");
                continue;
            }
            List<byte[]> json = sample(client.resources(type).inNamespace(sampled.get().namespace()));
            for (Case c : List.of(new Case(name + ", default transform", type, Transforms::defaults),
                    new Case(name + ", no transform", type, Transforms::none),
                    new Case(name + ", metadata only", PartialObjectMetadata.class, Transforms::defaults))) {
                section.append(table(c.title(), marginal(json, c.type(), c.transforms()))).append('\n');
            }
        }
        return section.toString();
    }

    /**
     * The smallest workload of {@code kind} that holds the {@link #OTHERS} + 1 objects a histogram
     * needs, all of the same shape (a ConfigMap namespace's kube-root-ca.crt lists after them).
     */
    static Optional<Workload> sampled(ScaleCurve curve, Workload.Kind kind) {
        return curve.sizes(kind).stream().filter(workload -> workload.objects() > OTHERS).findFirst();
    }

    private record Case(String title, Class<? extends HasMetadata> type,
            Supplier<UnaryOperator<HasMetadata>> transforms) {
    }

    private static <T extends HasMetadata> List<byte[]> sample(ResourceClient<T> client) {
        List<T> items = client.list(ListOptions.builder().limit(OTHERS + 1).build()).items();
        return items.stream().map(KubernetesJson.mapper()::writeValueAsBytes).toList();
    }
}
