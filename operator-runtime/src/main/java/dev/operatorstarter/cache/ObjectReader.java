package dev.operatorstarter.cache;

import io.fabric8.kubernetes.api.model.HasMetadata;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * One way to read objects of any type, whether the process caches them or not
 * (controller-runtime's manager client with {@code client.CacheOptions.DisableFor}): a read is
 * answered from an informer of the {@link SharedInformerFactory} when one holds the answer, and
 * otherwise by the API server. A reconciler reads through it the same way for every type; which
 * types are cached stays a matter of configuration ({@link ReaderOptions#uncached()}).
 *
 * <pre>{@code
 * ObjectReader reader = ObjectReader.of(factory, ReaderOptions.builder().uncached(Secret.class).build());
 * Optional<ConfigMap> settings = reader.get(ConfigMap.class, "apps", "settings"); // the cache, if it covers apps
 * Optional<Secret> token = reader.get(Secret.class, "apps", "token");              // always the API server
 * }</pre>
 *
 * <p>Guarantees:
 * <ul>
 * <li><b>A cache answers only what it can answer in full.</b> An informer is used when it has
 *     synced, is running, and covers the read: its namespace is the read's or all namespaces.
 *     A {@code get} is answered by an informer without selectors (found or not), or by a selected
 *     one that holds the object; a selected informer's miss goes to the server, since the object
 *     may exist outside its selectors. A {@code list} is answered by an informer without a field
 *     selector whose label selector's every requirement is among the list's (a cache of
 *     {@code app=web} answers a list of {@code app=web,tier=db}, not one of {@code tier=db}).
 *     Unlike controller-runtime's cache, whose selected caches silently miss what they exclude,
 *     a read here is never incomplete because of a cache's scope.</li>
 * <li><b>Never creates informers.</b> A type nothing informs on is read from the server every
 *     time (controller-runtime's cache would start an informer on the first read).</li>
 * <li>Types in {@link ReaderOptions#uncached()} always go to the server, even when an informer exists.</li>
 * <li>Server reads are a {@code GET} of the object, or a list in pages of 500, without a
 *     {@code resourceVersion}: they see the latest state (a quorum read). They carry the client's
 *     deadlines: each attempt is bounded by {@code ClientOptions.requestTimeout}, and retries by
 *     {@code maxRetries}.</li>
 * <li>Cache reads may lag the server by the watch's delay, as every {@link Lister} read does.</li>
 * </ul>
 *
 * <p><b>Objects are read-only.</b> Objects from a cache are shared with every other reader, and a
 * caller cannot tell where an object came from: never change one; copy it with its builder first.
 *
 * <p><b>Threading and errors.</b> Thread-safe. A cache read never blocks on the server; a server
 * read blocks, so never call the reader on a Reactor I/O thread (an informer's handler may, but it
 * then waits for the server). The server's refusals propagate as the client's
 * {@code ApiException}s (a missing object is an empty {@link Optional}, not an error); transport
 * failures as {@code KubernetesClientException}s. Once the factory is closed every read goes to
 * the server. Invalid arguments (a namespace for a cluster-scoped type, none for a {@code get} of
 * a namespaced one, a class without {@code @Group}/{@code @Version}) throw
 * {@link IllegalArgumentException}.
 */
public interface ObjectReader {

    /**
     * A reader over {@code informers}' caches; server reads go through the factory's client.
     * Informers the factory makes later are used as soon as they have synced.
     */
    static ObjectReader of(SharedInformerFactory informers, ReaderOptions options) {
        return new CacheOrServerReader(informers, options);
    }

    /**
     * The object {@code name} of {@code type} in {@code namespace} ({@code ""} for a cluster-scoped
     * type), or empty when it does not exist.
     */
    <T extends HasMetadata> Optional<T> get(Class<T> type, String namespace, String name);

    /**
     * The objects of {@code type} in {@code namespace} whose labels match {@code selector};
     * {@code ""} for every namespace (and for a cluster-scoped type).
     */
    <T extends HasMetadata> List<T> list(Class<T> type, String namespace, LabelSelector selector);

    /** Every object of {@code type} in {@code namespace} ({@code ""} for all). */
    default <T extends HasMetadata> List<T> list(Class<T> type, String namespace) {
        return list(type, namespace, LabelSelector.everything());
    }

    /** Where a read was answered from, for {@link ReaderMetrics}. */
    enum Source {
        /** An informer's cache. */
        CACHE,
        /** The API server. */
        API;

        /** The metric label value: {@code cache} or {@code api}. */
        public String label() {
            return name().toLowerCase(Locale.ROOT);
        }
    }
}
