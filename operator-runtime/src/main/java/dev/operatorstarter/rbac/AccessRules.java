package dev.operatorstarter.rbac;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import java.util.function.UnaryOperator;

/**
 * A set of {@link AccessRule}s, one per resource (and set of names): rules added for the same
 * target merge their verbs and reasons. Sorted by scope, group and resource, so the same
 * declarations always give the same text.
 */
public final class AccessRules {

    private static final AccessRules EMPTY = new AccessRules(List.of());
    private static final Comparator<AccessRule> ORDER = Comparator.comparing(AccessRule::clusterScoped)
            .thenComparing(AccessRule::group).thenComparing(AccessRule::resource)
            .thenComparing(rule -> String.join(",", rule.resourceNames()));

    private final List<AccessRule> rules;

    private AccessRules(List<AccessRule> rules) {
        this.rules = rules;
    }

    public static AccessRules empty() {
        return EMPTY;
    }

    public static AccessRules of(Collection<AccessRule> rules) {
        Map<String, AccessRule> merged = new LinkedHashMap<>();
        for (AccessRule rule : rules) {
            merged.merge(rule.key(), rule, AccessRule::merge);
        }
        List<AccessRule> sorted = new ArrayList<>(merged.values());
        sorted.sort(ORDER);
        return sorted.isEmpty() ? EMPTY : new AccessRules(List.copyOf(sorted));
    }

    public List<AccessRule> rules() {
        return rules;
    }

    public boolean isEmpty() {
        return rules.isEmpty();
    }

    /** These rules and {@code other}'s, merged. */
    public AccessRules and(AccessRules other) {
        List<AccessRule> all = new ArrayList<>(rules);
        all.addAll(other.rules);
        return of(all);
    }

    /** The rules {@code which} selects. */
    public AccessRules filter(Predicate<AccessRule> which) {
        return of(rules.stream().filter(which).toList());
    }

    /** The rules on namespaced resources: what a Role grants in one namespace. */
    public AccessRules namespaced() {
        return filter(rule -> !rule.clusterScoped());
    }

    /** The rules on cluster-scoped resources: only a ClusterRole grants them. */
    public AccessRules clusterScoped() {
        return filter(AccessRule::clusterScoped);
    }

    /**
     * The rules as the YAML of a Role's {@code rules}: a list at column 0, each rule preceded by
     * a comment saying what needs it, each list in flow style with its strings quoted.
     */
    public String toYaml() {
        return toYaml(AccessRules::quote);
    }

    /**
     * As {@link #toYaml()}, with each resource name written by {@code name} (a Helm template puts
     * an expression there instead of a quoted string).
     */
    public String toYaml(UnaryOperator<String> name) {
        StringBuilder yaml = new StringBuilder();
        for (AccessRule rule : rules) {
            if (!rule.reasons().isEmpty()) {
                yaml.append("# ").append(String.join("; ", rule.reasons())).append('\n');
            }
            yaml.append("- apiGroups: [").append(quote(rule.group())).append("]\n");
            yaml.append("  resources: [").append(quote(rule.resource())).append("]\n");
            if (!rule.resourceNames().isEmpty()) {
                yaml.append("  resourceNames: [").append(String.join(", ", rule.resourceNames().stream().map(name)
                        .toList())).append("]\n");
            }
            yaml.append("  verbs: [").append(String.join(", ", rule.verbs().stream().map(AccessRules::quote)
                    .toList())).append("]\n");
        }
        return yaml.toString();
    }

    /** {@code value} as a double-quoted YAML string. */
    public static String quote(String value) {
        StringBuilder quoted = new StringBuilder("\"");
        for (char c : value.toCharArray()) {
            if (c == '"' || c == '\\') {
                quoted.append('\\');
            }
            quoted.append(c);
        }
        return quoted.append('"').toString();
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof AccessRules that && rules.equals(that.rules);
    }

    @Override
    public int hashCode() {
        return rules.hashCode();
    }

    @Override
    public String toString() {
        return toYaml();
    }
}
