package dev.operatorstarter.client.discovery;

import dev.operatorstarter.client.GroupVersionResource;
import dev.operatorstarter.client.rest.RestClient;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Optional;

/**
 * What the server serves (client-go's {@code discovery} with its memory cache and a REST mapper).
 *
 * <p>Uses aggregated discovery ({@code apidiscovery.k8s.io/v2}, two requests for everything)
 * when the server offers it, and falls back to one request per group version otherwise. Results
 * are cached until {@link #invalidate()}; a lookup that misses refreshes the cache once (at most
 * once a second; a group version that fails is left out and logged, not fatal), so a CRD
 * installed after the client started is found. Thread-safe. The refresh interval is measured on
 * the REST client's {@linkplain dev.operatorstarter.client.rest.ClientOptions#timeSource() time source}.
 */
public interface DiscoveryClient {

    /** A discovery client over {@code rest}. */
    static DiscoveryClient create(RestClient rest) {
        return new CachedDiscoveryClient(rest, rest.options().timeSource());
    }

    /** The server's version (not cached). */
    ServerVersion serverVersion();

    /** Every resource in every served group version (subresources not listed separately). */
    List<ApiResource> resources();

    /** The group versions the server serves, for example {@code v1}, {@code apps/v1}. */
    List<String> groupVersions();

    /** The resource with this group, version and plural name, refreshing once on a miss. */
    Optional<ApiResource> findResource(String group, String version, String resource);

    /**
     * The REST mapping of a kind: the resource serving {@code kind} in {@code apiVersion}
     * ({@code v1}, {@code apps/v1}), refreshing once on a miss.
     */
    Optional<ApiResource> findKind(String apiVersion, String kind);

    /**
     * Asks the server now, bypassing the cache, whether it serves each of {@code resources}: one
     * request per group version ({@code /apis/<group>/<version>}, {@code /api/v1}), each a single
     * attempt that must answer within {@code deadline} (no retries, no rate-limiter wait).
     * A 404 or a list without the resource is {@link ResourceLookup.NotServed}; any other failure,
     * and no answer in time, is {@link ResourceLookup.Unanswered}, never "not served". For checks
     * before informers start, where the first failure should be conclusive rather than retried.
     *
     * @return one answer per resource, in their order
     */
    List<ResourceLookup> lookup(Collection<GroupVersionResource> resources, Duration deadline);

    /** Forgets the cached groups and resources; the next lookup asks the server. */
    void invalidate();
}
