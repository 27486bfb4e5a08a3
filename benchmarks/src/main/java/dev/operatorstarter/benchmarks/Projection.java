package dev.operatorstarter.benchmarks;

import java.util.Locale;

/**
 * What an informer caches of each object (controller-runtime's name for it): the whole object, or
 * its metadata alone ({@code PartialObjectMetadata}, negotiated with the API server).
 */
enum Projection {
    /** The objects as the API server stores them. */
    FULL_OBJECTS("full"),
    /** Names, labels, annotations, owners, versions: no spec, status or data. */
    METADATA_ONLY("metadata");

    private final String argument;

    Projection(String argument) {
        this.argument = argument;
    }

    /** How {@link InformerRun} takes it: {@code full}, {@code metadata}. */
    String argument() {
        return argument;
    }

    static Projection parse(String argument) {
        for (Projection projection : values()) {
            if (projection.argument.equals(argument.toLowerCase(Locale.ROOT))) {
                return projection;
            }
        }
        throw new IllegalArgumentException("no such projection: " + argument + " (full or metadata)");
    }
}
