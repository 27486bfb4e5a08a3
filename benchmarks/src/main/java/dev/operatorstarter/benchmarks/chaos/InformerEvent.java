package dev.operatorstarter.benchmarks.chaos;

import java.util.Objects;

/**
 * One notification a subject's informer handler received, as one line of the subject's events
 * file: {@code ADD|UPDATE|DELETE <name> <resourceVersion> <tombstone> <epochMillis>}.
 *
 * <p>Resource versions are compared as numbers: the local API server's are etcd revisions, which
 * grow with every write. (Kubernetes clients must treat them as opaque; a measurement on a known
 * server may not.)
 *
 * @param type what the handler was told
 * @param name the object's name (one namespace only, so the name is the key)
 * @param resourceVersion the object's resourceVersion as delivered; for a tombstone, the last
 *     version the cache held
 * @param tombstone for a delete: true when the informer inferred it from a relist (its final state
 *     is unknown); false otherwise
 * @param epochMillis when the handler received it, on the subject's wall clock (the same machine)
 */
record InformerEvent(Type type, String name, long resourceVersion, boolean tombstone, long epochMillis) {

    /** What a handler was told. */
    enum Type {
        ADD, UPDATE, DELETE
    }

    InformerEvent {
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(name, "name");
        if (name.isEmpty() || name.contains(" ")) {
            throw new IllegalArgumentException("name must be a non-empty word, was '" + name + "'");
        }
        if (tombstone && type != Type.DELETE) {
            throw new IllegalArgumentException("only a DELETE can be a tombstone, not " + type);
        }
    }

    /** The line written to the events file, without the line break. */
    String line() {
        return type + " " + name + " " + resourceVersion + " " + tombstone + " " + epochMillis;
    }

    /**
     * Reads a line written by {@link #line()}.
     *
     * @throws IllegalArgumentException naming the line when it is not one
     */
    static InformerEvent parse(String line) {
        String[] parts = line.strip().split(" ");
        if (parts.length != 5) {
            throw new IllegalArgumentException("not an informer event line: '" + line + "'");
        }
        try {
            return new InformerEvent(Type.valueOf(parts[0]), parts[1], Long.parseLong(parts[2]),
                    Boolean.parseBoolean(parts[3]), Long.parseLong(parts[4]));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("not an informer event line: '" + line + "'", e);
        }
    }
}
