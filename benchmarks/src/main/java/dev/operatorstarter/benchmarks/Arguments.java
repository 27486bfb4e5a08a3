package dev.operatorstarter.benchmarks;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * {@code benchmarks/run}'s arguments, read by {@link Suite}.
 *
 * <ul>
 *   <li>{@code -quick} (or {@code --quick}): every section, small; {@code --full} (the default): the full run.
 *   <li>{@code --only=informers,cold,profile,latency,sharding,failover,priority,watch,jmh,startup}: some sections
 *       (all but {@code cold} by default). {@code cold} is the scale curve's cold sync with each subject's own
 *       class-data archive ({@link ColdSync}), on the same sizes as {@code informers}.
 *   <li>{@code --configmaps=1k,10k,50k}, {@code --pods=2k,10k}: other sizes for the informer scale
 *       curve ({@code k} for thousands; empty for none of that kind). Default: {@link ScaleCurve#FULL}
 *       or {@link ScaleCurve#QUICK}.
 *   <li>{@code --runs=3}: runs per subject at every size, and on the baseline namespace. Default:
 *       5, and 3 at the largest size of each kind and on the baseline namespace; 1 with {@code -quick}.
 *   <li>{@code --sharding-objects=3k}, {@code --sharding-replicas=1,2,3}: the sharding section's
 *       objects and replica counts. Default: {@link ShardingScaleOut.Plan#FULL} or
 *       {@link ShardingScaleOut.Plan#QUICK}.
 *   <li>{@code --startup-variants=extracted-aot-cache-spring-aot,...}: the start-up section's variants, by
 *       {@link StartupTime#key key} (the name in lower case, words joined by {@code -}; {@code extracted} names
 *       both JDKs' rows); the default runs those of {@link StartupTime#DEFAULT_VARIANTS}. With {@code --runs},
 *       the start-up section runs each variant that many times.
 * </ul>
 *
 * @param quick whether {@code -quick} was given
 * @param sections the sections to run, in the suite's order
 * @param curve the informer section's scale curve
 * @param sharding the sharding section's objects and replica counts
 * @param startup the start-up section's variants (empty for its default ones) and runs per variant (0 for its default)
 */
record Arguments(boolean quick, List<String> sections, ScaleCurve curve, ShardingScaleOut.Plan sharding,
        Startup startup) {

    /**
     * The start-up section's choice.
     *
     * @param variants the variants' keys, empty for the section's default variants
     * @param runs runs per variant, 0 for the section's default
     */
    record Startup(List<String> variants, int runs) {
        static final Startup DEFAULT = new Startup(List.of(), 0);

        Startup {
            variants = List.copyOf(variants);
        }
    }

    static final List<String> SECTIONS = List.of("informers", "cold", "profile", "latency", "sharding", "failover",
            "priority", "watch", "jmh", "startup");
    /**
     * The sections run when {@code --only} is not given: all but {@code cold}, which measures the scale
     * curve four times more (each Java subject on two JDKs, with and without an archive) and is run on
     * chosen sizes.
     */
    static final List<String> DEFAULT_SECTIONS = SECTIONS.stream().filter(section -> !section.equals("cold")).toList();

    Arguments {
        sections = List.copyOf(sections);
    }

    /** Reads the arguments; exec:exec passes them as one string, so each is split on white space again. */
    static Arguments parse(String... args) {
        List<String> arguments = Arrays.stream(args).flatMap(arg -> Arrays.stream(arg.strip().split("\\s+")))
                .filter(arg -> !arg.isEmpty()).toList();
        boolean quick = false;
        List<String> sections = DEFAULT_SECTIONS;
        List<Integer> configMaps = null;
        List<Integer> pods = null;
        Integer runs = null;
        Integer shardingObjects = null;
        List<Integer> shardingReplicas = null;
        List<String> startupVariants = List.of();
        for (String argument : arguments) {
            if (argument.equals("-quick") || argument.equals("--quick")) {
                quick = true;
            } else if (argument.equals("--full")) {
                quick = false;
            } else if (argument.startsWith("--only=")) {
                sections = sections(value(argument));
            } else if (argument.startsWith("--configmaps=")) {
                configMaps = counts(argument);
            } else if (argument.startsWith("--pods=")) {
                pods = counts(argument);
            } else if (argument.startsWith("--runs=")) {
                runs = count(argument, value(argument));
            } else if (argument.startsWith("--sharding-objects=")) {
                shardingObjects = count(argument, value(argument));
            } else if (argument.startsWith("--sharding-replicas=")) {
                shardingReplicas = counts(argument);
            } else if (argument.startsWith("--startup-variants=")) {
                startupVariants = startupVariants(value(argument));
            } else {
                throw new IllegalArgumentException("unknown argument: " + argument + " (-quick, --full, --only=, "
                        + "--configmaps=, --pods=, --runs=, --sharding-objects=, --sharding-replicas=, --startup-variants=)");
            }
        }
        ScaleCurve defaults = quick ? ScaleCurve.QUICK : ScaleCurve.FULL;
        List<Integer> configMapSizes = configMaps != null ? configMaps : sizes(defaults, Workload.Kind.CONFIGMAPS);
        List<Integer> podSizes = pods != null ? pods : sizes(defaults, Workload.Kind.PODS);
        int everyRun = runs != null ? runs : quick ? ScaleCurve.QUICK_RUNS : ScaleCurve.RUNS;
        int largestRuns = runs != null ? runs : quick ? ScaleCurve.QUICK_RUNS : ScaleCurve.LARGEST_RUNS;
        ShardingScaleOut.Plan plan = quick ? ShardingScaleOut.Plan.QUICK : ShardingScaleOut.Plan.FULL;
        return new Arguments(quick, sections, ScaleCurve.of(configMapSizes, podSizes, everyRun, largestRuns),
                sharding(shardingObjects != null ? shardingObjects : plan.objects(),
                        shardingReplicas != null ? shardingReplicas : plan.replicas()),
                new Startup(startupVariants, runs != null ? runs : 0));
    }

    private static List<String> startupVariants(String value) {
        List<String> keys = List.of(value.split(","));
        for (String key : keys) {
            if (!StartupTime.KEYS.contains(key)) {
                throw new IllegalArgumentException("--startup-variants: no such variant: " + key + " ("
                        + String.join(", ", StartupTime.KEYS) + ")");
            }
        }
        return keys;
    }

    private static ShardingScaleOut.Plan sharding(int objects, List<Integer> replicas) {
        try {
            return new ShardingScaleOut.Plan(objects, replicas);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("--sharding-replicas: " + e.getMessage(), e);
        }
    }

    private static List<Integer> sizes(ScaleCurve curve, Workload.Kind kind) {
        return curve.sizes(kind).stream().map(Workload::objects).toList();
    }

    private static List<String> sections(String value) {
        List<String> chosen = List.of(value.split(","));
        for (String section : chosen) {
            if (!SECTIONS.contains(section)) {
                throw new IllegalArgumentException("--only: no such section: " + section + " (" + String.join(", ", SECTIONS) + ")");
            }
        }
        return SECTIONS.stream().filter(chosen::contains).toList();
    }

    private static List<Integer> counts(String argument) {
        String value = value(argument);
        List<Integer> counts = new ArrayList<>();
        if (!value.isEmpty()) {
            for (String count : value.split(",")) {
                counts.add(count(argument, count));
            }
        }
        return counts;
    }

    /** {@code 500}, {@code 2k}, {@code 50K}: a positive count. */
    private static int count(String argument, String text) {
        String digits = text.strip().toLowerCase(Locale.ROOT);
        int factor = digits.endsWith("k") ? 1_000 : 1;
        try {
            int count = Math.multiplyExact(Integer.parseInt(factor == 1 ? digits : digits.substring(0, digits.length() - 1)),
                    factor);
            if (count < 1) {
                throw new IllegalArgumentException(name(argument) + ": must be at least 1, was " + text);
            }
            return count;
        } catch (NumberFormatException | ArithmeticException e) {
            throw new IllegalArgumentException(name(argument) + ": not a count: " + text, e);
        }
    }

    private static String value(String argument) {
        return argument.substring(argument.indexOf('=') + 1);
    }

    private static String name(String argument) {
        return argument.substring(0, argument.indexOf('='));
    }
}
