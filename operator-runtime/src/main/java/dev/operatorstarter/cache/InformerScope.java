package dev.operatorstarter.cache;

import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Which objects of a resource one informer caches: a namespace (or all) and optional label and
 * field selectors. The {@link SharedInformerFactory} keeps one informer per resource and scope;
 * scopes that select the same objects (label selectors equal once parsed) share one.
 *
 * @param namespace the namespace, or "" for all namespaces (and for cluster-scoped resources)
 * @param labelSelector a label selector in its canonical form, or "" for none
 * @param fieldSelector a field selector, or "" for none
 */
public record InformerScope(String namespace, String labelSelector, String fieldSelector) {

    public InformerScope {
        namespace = namespace == null ? "" : namespace;
        labelSelector = labelSelector == null || labelSelector.isBlank() ? ""
                : LabelSelector.parse(labelSelector).toString();
        fieldSelector = fieldSelector == null ? "" : fieldSelector.strip();
    }

    /** Every object of the resource. */
    public static InformerScope all() {
        return new InformerScope("", "", "");
    }

    /** The objects in {@code namespace}. */
    public static InformerScope namespace(String namespace) {
        Objects.requireNonNull(namespace, "namespace");
        return new InformerScope(namespace, "", "");
    }

    /**
     * This scope with {@code selector} as its label selector, in place of the one it had
     * ({@link #andLabelSelector} adds to it instead).
     */
    public InformerScope withLabelSelector(@Nullable String selector) {
        return new InformerScope(namespace, selector, fieldSelector);
    }

    /**
     * This scope, narrowed further to objects whose labels <em>also</em> match {@code selector}:
     * the requirements of this scope's selector and of {@code selector} together
     * ({@link LabelSelector#and}), in the canonical form, so that narrowing equal scopes by equal
     * selectors gives equal scopes, which share one informer. Blank or null leaves the scope as
     * it is. {@link #withLabelSelector} replaces the selector instead.
     *
     * @throws IllegalArgumentException when {@code selector} is not a valid label selector
     */
    public InformerScope andLabelSelector(@Nullable String selector) {
        LabelSelector narrowed = LabelSelector.parse(labelSelector).and(LabelSelector.parse(selector));
        return new InformerScope(namespace, narrowed.toString(), fieldSelector);
    }

    /** This scope, narrowed by a field selector (for example {@code metadata.name=x}). */
    public InformerScope withFieldSelector(@Nullable String selector) {
        return new InformerScope(namespace, labelSelector, selector);
    }

    /** Appended to the informer's name: "/namespace", then the selectors in brackets. */
    String suffix() {
        StringBuilder suffix = new StringBuilder();
        if (!namespace.isEmpty()) {
            suffix.append('/').append(namespace);
        }
        if (!labelSelector.isEmpty() || !fieldSelector.isEmpty()) {
            suffix.append(" [").append(labelSelector);
            if (!fieldSelector.isEmpty()) {
                suffix.append(labelSelector.isEmpty() ? "" : ";").append(fieldSelector);
            }
            suffix.append(']');
        }
        return suffix.toString();
    }
}
