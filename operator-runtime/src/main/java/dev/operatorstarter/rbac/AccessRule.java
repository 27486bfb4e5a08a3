package dev.operatorstarter.rbac;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * One RBAC rule on one resource: the verbs allowed on {@code resource} of {@code group}, on any
 * object or only on {@code resourceNames}, and why the operator needs them.
 *
 * @param group the API group, {@code ""} for core
 * @param resource the plural, with {@code /subresource} where it applies to one ({@code staticsites/status})
 * @param resourceNames the objects it is limited to; empty for any
 * @param verbs the verbs, in the order kubectl lists them (get, list, watch, create, update, patch, delete)
 * @param clusterScoped whether the resource is cluster-scoped, so only a ClusterRole can grant it
 * @param reasons what needs it, for the reader of the generated RBAC and of a start-up failure
 */
public record AccessRule(String group, String resource, List<String> resourceNames, List<String> verbs,
        boolean clusterScoped, List<String> reasons) {

    private static final List<String> VERB_ORDER = List.of("get", "list", "watch", "create", "update", "patch",
            "delete", "deletecollection");

    public AccessRule {
        Objects.requireNonNull(group, "group");
        if (resource == null || resource.isBlank()) {
            throw new IllegalArgumentException("a rule needs a resource");
        }
        if (verbs.isEmpty()) {
            throw new IllegalArgumentException("a rule on " + resource + " needs at least one verb");
        }
        resourceNames = resourceNames.stream().distinct().sorted().toList();
        verbs = sortedVerbs(verbs);
        reasons = List.copyOf(new LinkedHashSet<>(reasons));
    }

    /** The resource without its subresource: {@code staticsites} of {@code staticsites/status}. */
    public String plural() {
        int slash = resource.indexOf('/');
        return slash < 0 ? resource : resource.substring(0, slash);
    }

    /** The subresource, {@code ""} for none. */
    public String subresource() {
        int slash = resource.indexOf('/');
        return slash < 0 ? "" : resource.substring(slash + 1);
    }

    /** What identifies the rule's target; rules with the same key merge their verbs. */
    String key() {
        return group + "\u0000" + resource + "\u0000" + String.join(",", resourceNames) + "\u0000" + clusterScoped;
    }

    AccessRule merge(AccessRule other) {
        List<String> allVerbs = new ArrayList<>(verbs);
        allVerbs.addAll(other.verbs);
        List<String> allReasons = new ArrayList<>(reasons);
        allReasons.addAll(other.reasons);
        return new AccessRule(group, resource, resourceNames, allVerbs, clusterScoped, allReasons);
    }

    /** This rule with only {@code only} of its verbs. */
    public AccessRule withVerbs(Collection<String> only) {
        return new AccessRule(group, resource, resourceNames, List.copyOf(only), clusterScoped, reasons);
    }

    /** {@code verbs} without duplicates, in kubectl's order, verbs it does not know last by name. */
    static List<String> sortedVerbs(Collection<String> verbs) {
        Set<String> distinct = new LinkedHashSet<>();
        for (String verb : verbs) {
            if (verb == null || verb.isBlank()) {
                throw new IllegalArgumentException("a verb is empty");
            }
            distinct.add(verb.strip());
        }
        return distinct.stream().sorted(Comparator.<String>comparingInt(verb -> {
            int at = VERB_ORDER.indexOf(verb);
            return at < 0 ? VERB_ORDER.size() : at;
        }).thenComparing(Comparator.naturalOrder())).toList();
    }
}
