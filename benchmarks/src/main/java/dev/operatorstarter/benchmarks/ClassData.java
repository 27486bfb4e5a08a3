package dev.operatorstarter.benchmarks;

import java.nio.file.Path;
import java.util.List;

/**
 * The JVM a subject's informer runs on in {@link ColdSync}, and the class data it maps: none, or an
 * archive written by a training run of the same subject on the same JDK, as a deployment writes it
 * at image build time and then starts from it.
 */
enum ClassData {
    /** The suite's JDK (17), no archive beyond the JDK's own: the scale curve's cold figure. */
    NONE("JDK 17", false),
    /** JDK 17 with an AppCDS archive of the subject's classes ({@code -XX:ArchiveClassesAtExit}). */
    CDS("JDK 17 + AppCDS", false),
    /** The newer JDK (25), no archive. */
    NEWER_NONE("JDK 25", true),
    /** JDK 25 with the subject's AOT cache ({@code -XX:AOTCacheOutput}: classes loaded and linked, method profiles). */
    AOT_CACHE("JDK 25 + AOT cache", true);

    private final String label;
    private final boolean newerJdk;

    ClassData(String label, boolean newerJdk) {
        this.label = label;
        this.newerJdk = newerJdk;
    }

    /** How the report's columns name it. */
    String label() {
        return label;
    }

    /** Whether it runs on the newer JDK ({@link Jdk#newer}) rather than the suite's. */
    boolean newerJdk() {
        return newerJdk;
    }

    /** Whether a training run must write an archive first. */
    boolean archived() {
        return this == CDS || this == AOT_CACHE;
    }

    /** The archive's file name for one training, {@code name} without an extension. */
    String archiveName(String name) {
        return name + (this == CDS ? ".jsa" : ".aot");
    }

    /** The training run's JVM options: write {@code archive} when the run ends. */
    List<String> trainingOptions(Path archive) {
        return switch (this) {
            case CDS -> List.of("-XX:ArchiveClassesAtExit=" + archive);
            case AOT_CACHE -> List.of("-XX:AOTCacheOutput=" + archive);
            case NONE, NEWER_NONE -> throw new IllegalStateException(this + " has no training run");
        };
    }

    /**
     * The measured run's JVM options: map {@code archive}, and refuse to start without it, so that a
     * run never measures a JVM that silently ignored its archive.
     */
    List<String> runOptions(Path archive) {
        return switch (this) {
            case CDS -> List.of("-XX:SharedArchiveFile=" + archive, "-Xshare:on");
            case AOT_CACHE -> List.of("-XX:AOTCache=" + archive, "-XX:AOTMode=on");
            case NONE, NEWER_NONE -> List.of();
        };
    }
}
