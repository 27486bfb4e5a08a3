package dev.operatorstarter.test.helm;

import java.util.ArrayList;
import java.util.List;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.MappingIterator;
import tools.jackson.dataformat.yaml.YAMLMapper;

/**
 * What {@code helm template} printed: the text, and its documents as JSON trees, to find by kind
 * and name and check field by field. Empty documents (a template whose condition was false) are
 * left out.
 */
public final class RenderedChart {

    private static final YAMLMapper YAML = YAMLMapper.builder().build();

    private final String text;
    private final List<JsonNode> documents;

    private RenderedChart(String text, List<JsonNode> documents) {
        this.text = text;
        this.documents = documents;
    }

    /** The documents of a YAML stream (a rendered chart, or any manifest file). */
    public static RenderedChart parse(String text) {
        List<JsonNode> documents = new ArrayList<>();
        try (MappingIterator<JsonNode> each = YAML.readerFor(JsonNode.class).readValues(text)) {
            while (each.hasNext()) {
                JsonNode document = each.next();
                if (document != null && document.isObject() && !document.isEmpty()) {
                    documents.add(document);
                }
            }
        }
        return new RenderedChart(text, List.copyOf(documents));
    }

    /** The text as Helm printed it. */
    public String text() {
        return text;
    }

    /** Every non-empty document, in the order printed. */
    public List<JsonNode> documents() {
        return documents;
    }

    /** The documents of {@code kind} ({@code "Role"}, {@code "Deployment"}), in the order printed. */
    public List<JsonNode> all(String kind) {
        return documents.stream().filter(document -> kind.equals(document.path("kind").asString())).toList();
    }

    /**
     * The only document of {@code kind}.
     *
     * @throws AssertionError naming how many there are, when not exactly one
     */
    public JsonNode one(String kind) {
        return only(all(kind), kind);
    }

    /**
     * The document of {@code kind} named {@code name} ({@code metadata.name}).
     *
     * @throws AssertionError naming the names there are, when there is none (or more than one)
     */
    public JsonNode one(String kind, String name) {
        List<JsonNode> named = all(kind).stream().filter(document -> name.equals(document.at("/metadata/name").asString()))
                .toList();
        if (named.size() != 1) {
            throw new AssertionError("expected one " + kind + " named " + name + ", the chart rendered " + named.size()
                    + "; its " + kind + " objects are " + all(kind).stream()
                    .map(document -> document.at("/metadata/name").asString()).toList());
        }
        return named.get(0);
    }

    private static JsonNode only(List<JsonNode> found, String what) {
        if (found.size() != 1) {
            throw new AssertionError("expected one " + what + ", the chart rendered " + found.size());
        }
        return found.get(0);
    }

    /**
     * The permissions a Role's or ClusterRole's rules grant, one per group, resource and verb, as
     * {@code group/resource:verb} ({@code /configmaps:get} for the core group), with
     * {@code @name} appended for each name a rule is limited to; sorted, so two roles compare
     * as lists.
     */
    public static List<String> permissions(JsonNode role) {
        List<String> permissions = new ArrayList<>();
        for (JsonNode rule : role.path("rules")) {
            for (JsonNode group : rule.path("apiGroups")) {
                for (JsonNode resource : rule.path("resources")) {
                    for (JsonNode verb : rule.path("verbs")) {
                        String permission = group.asString() + "/" + resource.asString() + ":" + verb.asString();
                        if (rule.path("resourceNames").isEmpty()) {
                            permissions.add(permission);
                        } else {
                            rule.path("resourceNames").forEach(name -> permissions.add(permission + "@" + name.asString()));
                        }
                    }
                }
            }
        }
        return permissions.stream().sorted().toList();
    }

    /**
     * Whether a Role's or ClusterRole's rules grant {@code permission}, written as
     * {@link #permissions} writes one: {@code group/resource:verb}, and {@code @name} for a single
     * object ({@code coordination.k8s.io/leases:update@my-leader}). A rule grants it when it names
     * the group, the resource and the verb (or {@code *} for any of them) and either no objects or
     * that one, as the API server's RBAC decides. So a test can ask for what the code needs
     * without fixing how the chart's rules are written.
     *
     * @throws IllegalArgumentException if {@code permission} is not in that form
     */
    public static boolean allows(JsonNode role, String permission) {
        int slash = permission.indexOf('/');
        int colon = permission.indexOf(':', slash + 1);
        if (slash < 0 || colon < 0) {
            throw new IllegalArgumentException("permission " + permission + " is not group/resource:verb[@name]");
        }
        int at = permission.indexOf('@', colon + 1);
        String group = permission.substring(0, slash);
        String resource = permission.substring(slash + 1, colon);
        String verb = at < 0 ? permission.substring(colon + 1) : permission.substring(colon + 1, at);
        String name = at < 0 ? null : permission.substring(at + 1);
        for (JsonNode rule : role.path("rules")) {
            if (names(rule.path("apiGroups"), group) && names(rule.path("resources"), resource)
                    && names(rule.path("verbs"), verb)
                    && (rule.path("resourceNames").isEmpty() || name != null && contains(rule.path("resourceNames"), name))) {
                return true;
            }
        }
        return false;
    }

    private static boolean names(JsonNode values, String value) {
        return contains(values, value) || contains(values, "*");
    }

    private static boolean contains(JsonNode values, String value) {
        for (JsonNode each : values) {
            if (value.equals(each.asString())) {
                return true;
            }
        }
        return false;
    }

    @Override
    public String toString() {
        return "RenderedChart[" + documents.size() + " documents]";
    }
}
