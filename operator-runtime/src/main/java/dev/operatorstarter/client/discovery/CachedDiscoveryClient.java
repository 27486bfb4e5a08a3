package dev.operatorstarter.client.discovery;

import dev.operatorstarter.client.GroupVersionResource;
import dev.operatorstarter.client.rest.ApiErrors;
import dev.operatorstarter.client.rest.KubernetesClientException;
import dev.operatorstarter.client.rest.RestClient;
import dev.operatorstarter.time.TimeSource;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
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
    public List<ResourceLookup> lookup(Collection<GroupVersionResource> resources, Duration deadline) {
        long start = time.nanoTime();
        // one request per group version, whatever the number of its resources asked about
        Map<String, List<ApiResource>> served = new HashMap<>();
        Map<String, RuntimeException> failed = new HashMap<>();
        List<ResourceLookup> answers = new ArrayList<>();
        for (GroupVersionResource resource : resources) {
            String path = path(resource.group(), resource.version());
            fetchResourceList(path, resource.group(), resource.version(), deadline, served, failed);
            answers.add(answer(resource, served.get(path), failed.get(path)));
        }
        // Not served: does the group serve the resource in other versions? Then its CRD is installed
        // and the message must not say otherwise. Best effort, within what is left of the deadline.
        Map<String, List<String>> versionsOfGroups = new HashMap<>();
        for (int i = 0; i < answers.size(); i++) {
            if (answers.get(i) instanceof ResourceLookup.NotServed notServed && !notServed.resource().group().isEmpty()) {
                List<String> groupVersions = versionsOfGroups.computeIfAbsent(notServed.resource().group(),
                        group -> groupVersions(group, deadline.minus(time.since(start))));
                answers.set(i, new ResourceLookup.NotServed(notServed.resource(), notServed.groupVersionServed(),
                        versionsServing(notServed.resource(), groupVersions, deadline, start, served, failed)));
            }
        }
        return answers;
    }

    /** Which of {@code groupVersions} other than the one asked about serve {@code resource}, as far as time allows. */
    private List<String> versionsServing(GroupVersionResource resource, List<String> groupVersions, Duration deadline,
            long start, Map<String, List<ApiResource>> served, Map<String, RuntimeException> failed) {
        List<String> serving = new ArrayList<>();
        for (String version : groupVersions) {
            Duration left = deadline.minus(time.since(start));
            if (version.equals(resource.version()) || left.isNegative() || left.isZero()) {
                continue;
            }
            String path = path(resource.group(), version);
            fetchResourceList(path, resource.group(), version, left, served, failed); // once per group version
            List<ApiResource> list = served.get(path);
            if (list != null && list.stream().anyMatch(each -> each.resource().equals(resource.resource()))) {
                serving.add(version);
            }
        }
        return serving;
    }

    /** GETs one group version's resource list into {@code served} or its failure into {@code failed}, once. */
    private void fetchResourceList(String path, String group, String version, Duration deadline,
            Map<String, List<ApiResource>> served, Map<String, RuntimeException> failed) {
        if (served.containsKey(path) || failed.containsKey(path)) {
            return;
        }
        try {
            JsonNode list = rest.get().path(path).deadline(deadline).execute(JsonNode.class);
            if (list == null) {
                throw new KubernetesClientException("GET " + path + " returned an empty body");
            }
            served.put(path, resourceList(group, version, list));
        } catch (RuntimeException e) {
            failed.put(path, e);
        }
    }

    /** The versions the server serves of {@code group} ({@code /apis/<group>}); none when it cannot say in time. */
    private List<String> groupVersions(String group, Duration deadline) {
        if (deadline.isNegative() || deadline.isZero()) {
            return List.of();
        }
        try {
            JsonNode document = rest.get().path("/apis/" + group).deadline(deadline).execute(JsonNode.class);
            return document == null ? List.of() : document.path("versions").valueStream()
                    .map(version -> version.path("version").asString("")).filter(v -> !v.isEmpty()).toList();
        } catch (RuntimeException e) {
            return List.of(); // a 404 (no such group) or no answer: nothing more to say
        }
    }

    private static ResourceLookup answer(GroupVersionResource resource, @Nullable List<ApiResource> served,
            @Nullable RuntimeException failure) {
        if (served == null) {
            // Only the server's own 404 for the group version is an answer; a 503 of an aggregated
            // API, a refusal, a timeout say nothing about whether the resource exists.
            RuntimeException cause = Objects.requireNonNull(failure);
            return ApiErrors.isNotFound(cause) ? new ResourceLookup.NotServed(resource, false, List.of())
                    : new ResourceLookup.Unanswered(resource, cause);
        }
        return served.stream().filter(each -> each.resource().equals(resource.resource())).findFirst()
                .<ResourceLookup>map(found -> new ResourceLookup.Served(resource, found))
                .orElseGet(() -> new ResourceLookup.NotServed(resource, true, List.of()));
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
        JsonNode list;
        try {
            list = rest.get().path(path(group, version)).execute(JsonNode.class);
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
        resources.addAll(resourceList(group, version, list));
    }

    private static String path(String group, String version) {
        return group.isEmpty() ? "/api/" + version : "/apis/" + group + "/" + version;
    }

    /** The resources of one group version's {@code APIResourceList}, each with its subresources. */
    private static List<ApiResource> resourceList(String group, String version, JsonNode list) {
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
        List<ApiResource> resources = new ArrayList<>();
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
        return resources;
    }

    private static List<String> strings(JsonNode array) {
        List<String> values = new ArrayList<>();
        for (JsonNode value : array) {
            values.add(value.asString());
        }
        return values;
    }
}
