package dev.operatorstarter.benchmarks;

import java.util.ArrayList;
import java.util.List;

/**
 * One way to launch the sample operator: the layout of its jar, the JVM command (as a Dockerfile
 * writes it, {@code java} first, run in the layout's folder) and the training run that prepares
 * its class-data archive, if any. The commands of {@link #CDS} are the image's own:
 * {@code StartupVariantTest} holds them against {@code sample-operator/Dockerfile}.
 *
 * @param name the variant's name in the report
 * @param layout how the jar is laid out on disk
 * @param newerJdk whether it runs on the newer JDK (24 or later) rather than the suite's own
 * @param training the training run's command, empty for none
 * @param check a command that exits 0 only if the archive the training wrote is usable (the
 *     training's command with the archive required, {@code -Xshare:on} or {@code -XX:AOTMode=on}),
 *     empty for none
 * @param launch the command that starts the operator, before the benchmark's own arguments
 */
record StartupVariant(String name, Layout layout, boolean newerJdk, List<String> training, List<String> check,
        List<String> launch) {

    /** How the executable jar is laid out. */
    enum Layout {
        /** The jar that {@code mvn package} writes, its dependencies nested inside it. */
        FAT_JAR,
        /** {@code extract --layers --launcher}, the layers copied into one folder: Spring Boot's launcher on an exploded jar. */
        LAUNCHER,
        /** {@code extract --layers}, the layers copied into one folder: {@code application.jar} and {@code lib/}. */
        EXTRACTED
    }

    /** The jar's name in every layout: the Dockerfile's. */
    static final String JAR = "application.jar";
    /** Where the image's training run finds its kubeconfig (a build-time bind mount). */
    static final String IMAGE_TRAINING_KUBECONFIG = "/tmp/training-kubeconfig.yaml";
    /** Stops the training run once the context has refreshed: no lifecycle bean starts, nothing connects. */
    static final String EXIT_ON_REFRESH = "-Dspring.context.exit=onRefresh";
    static final String LAZY = "--spring.main.lazy-initialization=true";

    StartupVariant {
        training = List.copyOf(training);
        check = List.copyOf(check);
        launch = List.copyOf(launch);
    }

    /** The image's extraction, run in the folder that holds {@link #JAR}. */
    static List<String> extract(Layout layout) {
        List<String> command = new ArrayList<>(List.of("java", "-Djarmode=tools", "-jar", JAR, "extract", "--layers"));
        if (layout == Layout.LAUNCHER) {
            command.add("--launcher");
        }
        command.addAll(List.of("--destination", "extracted"));
        return command;
    }

    static StartupVariant fatJar() {
        return new StartupVariant("fat jar", Layout.FAT_JAR, false, List.of(), List.of(), List.of("java", "-jar", JAR));
    }

    /** The image before class data sharing: the launcher on the exploded layers. */
    static StartupVariant launcher() {
        return new StartupVariant("launcher (exploded)", Layout.LAUNCHER, false, List.of(), List.of(),
                List.of("java", "org.springframework.boot.loader.launch.JarLauncher"));
    }

    static StartupVariant extracted(boolean newerJdk) {
        return new StartupVariant("extracted", Layout.EXTRACTED, newerJdk, List.of(), List.of(),
                List.of("java", "-jar", JAR));
    }

    /** The image: a dynamic CDS archive (Java 13 and later) from a training run that exits on refresh. */
    static StartupVariant cds(String trainingKubeconfig) {
        return new StartupVariant("extracted + CDS", Layout.EXTRACTED, false,
                List.of("java", "-XX:ArchiveClassesAtExit=application.jsa", EXIT_ON_REFRESH, "-jar", JAR,
                        "--operator.client.kubeconfig=" + trainingKubeconfig),
                List.of("java", "-Xshare:on", "-XX:SharedArchiveFile=application.jsa", EXIT_ON_REFRESH, "-jar", JAR,
                        "--operator.client.kubeconfig=" + trainingKubeconfig),
                List.of("java", "-XX:SharedArchiveFile=application.jsa", "-jar", JAR));
    }

    /** {@link #cds} with every bean lazy: what no lazy setting can beat, measured, not recommended. */
    static StartupVariant cdsLazy(String trainingKubeconfig) {
        StartupVariant cds = cds(trainingKubeconfig);
        List<String> launch = new ArrayList<>(cds.launch());
        launch.add(LAZY);
        return new StartupVariant("extracted + CDS + all lazy", Layout.EXTRACTED, false, cds.training(), cds.check(), launch);
    }

    /** The AOT cache of JDK 25 (JEP 483, 514, 515): one training run writes it; loaded and linked classes, method profiles. */
    static StartupVariant aotCache(String trainingKubeconfig) {
        return new StartupVariant("extracted + AOT cache", Layout.EXTRACTED, true,
                List.of("java", "-XX:AOTCacheOutput=application.aot", EXIT_ON_REFRESH, "-jar", JAR,
                        "--operator.client.kubeconfig=" + trainingKubeconfig),
                List.of("java", "-XX:AOTMode=on", "-XX:AOTCache=application.aot", EXIT_ON_REFRESH, "-jar", JAR,
                        "--operator.client.kubeconfig=" + trainingKubeconfig),
                List.of("java", "-XX:AOTCache=application.aot", "-jar", JAR));
    }

    /**
     * {@code variant} in Spring's AOT mode ({@code -Dspring.aot.enabled=true} in the training run,
     * its check and the launch): the bean definitions the build generated ({@code process-aot})
     * replace the configuration classes' parsing and the conditions' evaluation at start-up.
     */
    static StartupVariant springAot(StartupVariant variant) {
        return new StartupVariant(variant.name() + " + Spring AOT", variant.layout(), variant.newerJdk(),
                withSpringAot(variant.training()), withSpringAot(variant.check()), withSpringAot(variant.launch()));
    }

    /**
     * {@code variant} with more JVM {@code options} in its training run, its check and its launch (an
     * archive is trained with the options it is used with), named {@code variant + " + " + label}.
     */
    static StartupVariant withOptions(StartupVariant variant, String label, String... options) {
        return new StartupVariant(variant.name() + " + " + label, variant.layout(), variant.newerJdk(),
                withOptions(variant.training(), options), withOptions(variant.check(), options),
                withOptions(variant.launch(), options));
    }

    /**
     * {@code variant} trained against the API server up to the first reconcile, not stopped on
     * refresh: its archive also holds what runs after the refresh (the client's TLS and HTTP, the
     * informers, leader election, the reconcile). A training a cluster-less image build cannot run;
     * it measures what those classes cost.
     */
    static StartupVariant trainedToReconcile(StartupVariant variant) {
        List<String> training = variant.training().stream().filter(part -> !part.equals(EXIT_ON_REFRESH)
                && !part.startsWith("--operator.client.kubeconfig=")).toList();
        return new StartupVariant(variant.name() + " + trained to first reconcile", variant.layout(), variant.newerJdk(),
                training, variant.check(), variant.launch());
    }

    private static List<String> withOptions(List<String> command, String... options) {
        if (command.isEmpty()) {
            return command;
        }
        List<String> with = new ArrayList<>(command);
        with.addAll(1, List.of(options));
        return with;
    }

    private static List<String> withSpringAot(List<String> command) {
        if (command.isEmpty()) {
            return command;
        }
        List<String> aot = new ArrayList<>(command);
        aot.add(1, "-Dspring.aot.enabled=true");
        return aot;
    }

    /** The command as a Dockerfile's exec form writes it: {@code ["java", "-jar", "application.jar"]}. */
    static String execForm(List<String> command) {
        return "[" + String.join(", ", command.stream().map(part -> "\"" + part + "\"").toList()) + "]";
    }
}
