package dev.operatorstarter.client.config;

import static dev.operatorstarter.client.config.KubeconfigParser.shown;
import static dev.operatorstarter.client.config.KubeconfigParser.text;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * Several kubeconfig files merged by kubectl's rules (client-go's {@code ClientConfigLoadingRules}):
 * for clusters, users and contexts the first file that defines a name wins, and the first
 * non-empty {@code current-context} wins. Each entry remembers its file, against whose folder its
 * relative paths resolve.
 */
final class MergedKubeconfig {

    final Map<String, Entry> clusters = new LinkedHashMap<>();
    final Map<String, Entry> users = new LinkedHashMap<>();
    final Map<String, Entry> contexts = new LinkedHashMap<>();
    @Nullable String currentContext;

    /** Adds the entries of {@code file}, whose parsed content is {@code root}; earlier files win. */
    void add(Path file, JsonNode root) {
        collect(file, root, "clusters", "cluster", clusters);
        collect(file, root, "users", "user", users);
        collect(file, root, "contexts", "context", contexts);
        String current = text(root, "current-context");
        if (currentContext == null && current != null && !current.isEmpty()) {
            currentContext = current;
        }
    }

    private static void collect(Path file, JsonNode root, String list, String field, Map<String, Entry> into) {
        JsonNode entries = root.get(list);
        if (entries == null || entries.isNull()) {
            return;
        }
        if (!entries.isArray()) {
            throw new ConfigException("kubeconfig " + file + ": field " + list + " must be a list");
        }
        int index = 0;
        for (JsonNode entry : entries) {
            String name = text(entry, "name");
            if (name == null || name.isEmpty()) {
                throw new ConfigException("kubeconfig " + file + ": " + list + "[" + index + "] has no name");
            }
            JsonNode body = entry.get(field);
            if (body == null || !body.isObject()) {
                throw new ConfigException("kubeconfig " + file + ": " + list + "[" + index + "] (\"" + shown(name)
                        + "\") has no " + field + " mapping");
            }
            into.putIfAbsent(name, new Entry(file, body));
            index++;
        }
    }

    /** One named cluster, user or context, and the file it came from. */
    record Entry(Path file, JsonNode node) {
    }
}
