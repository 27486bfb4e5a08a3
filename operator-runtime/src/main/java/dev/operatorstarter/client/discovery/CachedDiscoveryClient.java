package dev.operatorstarter.client.discovery;

import dev.operatorstarter.client.GroupVersionResource;
import dev.operatorstarter.client.rest.ApiErrors;
import dev.operatorstarter.client.rest.KubernetesClientException;
import dev.operatorstarter.client.rest.RestClient;
import dev.operatorstarter.time.TimeSource;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.JsonNode;

/** {@link DiscoveryClient} with a memory cache, refreshed on invalidation or a missed lookup. */
final class CachedDiscoveryClient implements DiscoveryClient {

    /** Aggregated discovery first (v2, then v2beta1), the classic documents otherwise. */
    static final String ACCEPT = "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,"
            + "application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList,application/json";

    /** A lookup that misses refreshes at most this often, so a loop over an unknown kind cannot flood the server. */
    static final Duration MIN_REFRESH_INTERVAL = Duration.ofSeconds(1);
    private static final Logger log = LoggerFactory.getLogger(CachedDiscoveryClient.class);

    private final RestClient rest;
    private final TimeSource time;
    private volatile @Nullable Snapshot snapshot;

    CachedDiscoveryClient(RestClient rest, TimeSource time) {
        this.rest = rest;
        this.time = time;
    }

    private record Snapshot(List<String> groupVersions, List<ApiResource> resources, long fetchedAt) {
    }

    @Override
    public ServerVersion serverVersion() {
        JsonNode version = rest.get().path("/version").execute(JsonNode.class);
        if (version == null) {
            throw new KubernetesClientException("GET /version returned an empty body");
        }
        return new ServerVersion(version.path("major").asString(""), version.path("minor").asString(""),
                version.path("gitVersion").asString(""), version.path("platform").asString(""));
    }

    @Override
    public List<ApiResource> resources() {
        return current().resources();
    }

    @Override
    public List<String> groupVersions() {
        return current().groupVersions();
    }

    @Override
    public Optional<ApiResource> findResource(String group, String version, String resource) {
        return find(r -> r.group().equals(group) && r.version().equals(version) && r.resource().equals(resource));
    }

    @Override
    public Optional<ApiResource> findKind(String apiVersion, String kind) {
        return find(r -> r.apiVersion().equals(apiVersion) && r.kind().equals(kind));
    }

    @Override
    public ResourceLookup lookup(GroupVersionResource resource, Duration deadline) {
        String path = resource.group().isEmpty() ? "/api/" + resource.version()
                : "/apis/" + resource.group() + "/" + resource.version();
        JsonNode list;
        try {
            list = rest.get().path(path).deadline(deadline).execute(JsonNode.class);
        } catch (RuntimeException e) {
            // Only the server's own 404 for the group version is an answer; a 503 of an aggregated
            // API, a refusal, a timeout say nothing about whether the resource exists.
            return ApiErrors.isNotFound(e) ? new ResourceLookup.NotServed(resource, false)
                    : new ResourceLookup.Unanswered(resource, e);
        }
        if (list == null) {
            return new ResourceLookup.Unanswered(resource,
                    new KubernetesClientException("GET " + path + " returned an empty body"));
        }
        JsonNode found = null;
        List<String> subresources = new ArrayList<>();
        for (JsonNode entry : list.path("resources")) {
            String name = entry.path("name").asString();
            if (name.equals(resource.resource())) {
                found = entry;
            } else if (name.startsWith(resource.resource() + "/")) {
                subresources.add(name.substring(resource.resource().length() + 1));
            }
        }
        if (found == null) {
            return new ResourceLookup.NotServed(resource, true);
        }
        return new ResourceLookup.Served(resource, new ApiResource(resource.group(), resource.version(),
                resource.resource(), found.path("kind").asString(""), found.path("namespaced").asBoolean(false),
                strings(found.path("verbs")), subresources));
    }

    @Override
    public void invalidate() {
        snapshot = null;
    }

    private Optional<ApiResource> find(Predicate<ApiResource> match) {
        Snapshot cached = current();
        Optional<ApiResource> hit = cached.resources().stream().filter(match).findFirst();
        if (hit.isPresent() || time.since(cached.fetchedAt()).compareTo(MIN_REFRESH_INTERVAL) < 0) {
            return hit;
        }
        // A miss may be a CRD installed since the snapshot: look once more. Only the thread that
        // still sees the snapshot it missed on refreshes, so a fresh snapshot is never thrown away.
        synchronized (this) {
            if (snapshot == cached || snapshot == null) {
                snapshot = fetch();
            }
            return snapshot.resources().stream().filter(match).findFirst();
        }
    }

    private Snapshot current() {
        Snapshot cached = snapshot;
        if (cached != null) {
            return cached;
        }
        synchronized (this) {
            cached = snapshot;
            if (cached == null) {
                cached = fetch();
                snapshot = cached;
            }
            return cached;
        }
    }

    private Snapshot fetch() {
        List<String> groupVersions = new ArrayList<>();
        List<ApiResource> resources = new ArrayList<>();
        for (String path : List.of("/api", "/apis")) {
            JsonNode document = rest.get().path(path).accept(ACCEPT).execute(JsonNode.class);
            if (document == null) {
                throw new KubernetesClientException("GET " + path + " returned an empty body");
            }
            if ("APIGroupDiscoveryList".equals(document.path("kind").asString(""))) {
                readAggregated(document, groupVersions, resources);
            } else if (path.equals("/api")) {
                for (JsonNode version : document.path("versions")) {
                    readGroupVersion("", version.asString(), groupVersions, resources);
                }
            } else {
                for (JsonNode group : document.path("groups")) {
                    for (JsonNode version : group.path("versions")) {
                        readGroupVersion(group.path("name").asString(), version.path("version").asString(), groupVersions,
                                resources);
                    }
                }
            }
        }
        return new Snapshot(List.copyOf(groupVersions), List.copyOf(resources), time.nanoTime());
    }

    private static void readAggregated(JsonNode list, List<String> groupVersions, List<ApiResource> resources) {
        for (JsonNode group : list.path("items")) {
            String groupName = group.path("metadata").path("name").asString("");
            for (JsonNode version : group.path("versions")) {
                String versionName = version.path("version").asString();
                if ("Stale".equals(version.path("freshness").asString(""))) {
                    // an aggregated API server that did not answer: its resources may be wrong
                    log.debug("Skipping stale discovery for {}/{}", groupName, versionName);
                    continue;
                }
                groupVersions.add(groupName.isEmpty() ? versionName : groupName + "/" + versionName);
                for (JsonNode resource : version.path("resources")) {
                    List<String> subresources = new ArrayList<>();
                    for (JsonNode subresource : resource.path("subresources")) {
                        subresources.add(subresource.path("subresource").asString());
                    }
                    resources.add(new ApiResource(groupName, versionName, resource.path("resource").asString(),
                            resource.path("responseKind").path("kind").asString(""),
                            "Namespaced".equals(resource.path("scope").asString()), strings(resource.path("verbs")),
                            subresources));
                }
            }
        }
    }

    private void readGroupVersion(String group, String version, List<String> groupVersions,
            List<ApiResource> resources) {
        String groupVersion = group.isEmpty() ? version : group + "/" + version;
        String path = group.isEmpty() ? "/api/" + version : "/apis/" + group + "/" + version;
        JsonNode list;
        try {
            list = rest.get().path(path).execute(JsonNode.class);
        } catch (KubernetesClientException e) {
            // One group version failing (an aggregated API server down, a forbidden group) must not
            // hide all the others: skip it and report, as client-go's partial discovery does.
            if (!ApiErrors.isServiceUnavailable(e) && !ApiErrors.isNotFound(e)) {
                log.warn("Discovery of {} failed; its resources are left out: {}", groupVersion, e.getMessage());
            }
            return;
        }
        if (list == null) {
            return;
        }
        groupVersions.add(groupVersion);
        List<ApiResource> main = new ArrayList<>();
        Set<String> subresourceNames = new LinkedHashSet<>();
        for (JsonNode resource : list.path("resources")) {
            String name = resource.path("name").asString();
            if (name.contains("/")) {
                subresourceNames.add(name);
                continue;
            }
            main.add(new ApiResource(group, version, name, resource.path("kind").asString(""),
                    resource.path("namespaced").asBoolean(false), strings(resource.path("verbs")), List.of()));
        }
        for (ApiResource resource : main) {
            List<String> subresources = new ArrayList<>();
            for (String sub : subresourceNames) {
                if (sub.startsWith(resource.resource() + "/")) {
                    subresources.add(sub.substring(resource.resource().length() + 1));
                }
            }
            resources.add(new ApiResource(resource.group(), resource.version(), resource.resource(), resource.kind(),
                    resource.namespaced(), resource.verbs(), subresources));
        }
    }

    private static List<String> strings(JsonNode array) {
        List<String> values = new ArrayList<>();
        for (JsonNode value : array) {
            values.add(value.asString());
        }
        return values;
    }
}
