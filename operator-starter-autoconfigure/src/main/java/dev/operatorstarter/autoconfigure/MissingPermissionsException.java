package dev.operatorstarter.autoconfigure;

import dev.operatorstarter.rbac.AccessRules;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The API server does not allow the operator something it needs, found at start-up before any
 * informer starts: each namespace's missing rules, with only the verbs that are missing. Its
 * failure analyzer prints them as the YAML of a Role's rules, to paste.
 */
public class MissingPermissionsException extends RuntimeException {

    private final String identity;
    private final Map<String, AccessRules> missing;

    /**
     * @param identity who asked: the user name the API server gave, else where the credentials came from
     * @param missing by namespace ({@code ""} for cluster-wide), what is not allowed
     */
    public MissingPermissionsException(String identity, Map<String, AccessRules> missing) {
        super(message(identity, missing));
        this.identity = identity;
        this.missing = Collections.unmodifiableMap(new LinkedHashMap<>(missing)); // in the order given
    }

    public String identity() {
        return identity;
    }

    /** By namespace ({@code ""} for cluster-wide), the rules that are missing. */
    public Map<String, AccessRules> missing() {
        return missing;
    }

    private static String message(String identity, Map<String, AccessRules> missing) {
        int count = missing.values().stream().mapToInt(rules -> rules.rules().stream()
                .mapToInt(rule -> rule.verbs().size() * Math.max(1, rule.resourceNames().size())).sum()).sum();
        StringBuilder text = new StringBuilder(identity).append(" may not do ").append(count)
                .append(count == 1 ? " thing" : " things").append(" the operator needs:");
        missing.forEach((namespace, rules) -> {
            text.append("\n").append(namespace.isEmpty() ? "cluster-wide (a ClusterRole)" : "in namespace " + namespace
                    + " (a Role there, or a ClusterRole)").append(":\n");
            text.append(rules.toYaml().indent(2));
        });
        return text.toString().stripTrailing();
    }
}
