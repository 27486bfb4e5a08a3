package dev.operatorstarter.cache;

import dev.operatorstarter.client.ResourceList;
import dev.operatorstarter.client.rest.ApiException;
import dev.operatorstarter.client.rest.ListOptions;
import io.fabric8.kubernetes.api.model.HasMetadata;
import java.util.List;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A paginated list (client-go's {@code pager.ListPager}): pages of {@code pageSize} objects
 * chained by continue tokens, read at or after a resourceVersion.
 *
 * <p>When a continue token expires before the last page (it outlived etcd's compaction window),
 * the pages read so far are discarded ({@link Pages#discard()}) and the whole collection is read
 * in one request instead, as client-go's pager does. Any other failure propagates.
 *
 * <p>Threading: one list at a time per caller; holds no state between lists.
 */
final class ListPager<T extends HasMetadata> {

    private static final Logger log = LoggerFactory.getLogger(Reflector.class); // the reflector's log, as before

    /** Where the pages go, as they come. */
    interface Pages<T> {

        /** The objects of the next page. */
        void add(List<T> items);

        /** The pages added so far are void: the list starts over. */
        void discard();
    }

    private final String name;
    private final ListerWatcher<T> listerWatcher;
    private final int pageSize;

    /** @param name names the collection in logs */
    ListPager(String name, ListerWatcher<T> listerWatcher, int pageSize) {
        this.name = Objects.requireNonNull(name, "name");
        this.listerWatcher = Objects.requireNonNull(listerWatcher, "listerWatcher");
        this.pageSize = pageSize;
    }

    /**
     * Lists the collection at or after {@code resourceVersion} ("" = the latest state) into
     * {@code pages}; returns the list's resourceVersion.
     *
     * @throws RuntimeException what the list requests throw ({@link ApiException} for an error status)
     */
    String list(String resourceVersion, Pages<T> pages) {
        String match = resourceVersion.isEmpty() ? null : "NotOlderThan";
        ResourceList<T> page = listerWatcher.list(ListOptions.builder().limit(pageSize).resourceVersion(resourceVersion)
                .resourceVersionMatch(match).build());
        String listVersion = page.resourceVersion();
        pages.add(page.items());
        int read = page.items().size();
        while (!page.continueToken().isEmpty()) {
            ListOptions next = ListOptions.builder().limit(pageSize).continueToken(page.continueToken()).build();
            try {
                page = listerWatcher.list(next);
            } catch (ApiException e) {
                if (!Failures.expired(e)) {
                    throw e;
                }
                log.info("{}: continue token expired after {} objects; listing everything in one request", name, read);
                pages.discard();
                page = listerWatcher.list(ListOptions.builder().resourceVersion(resourceVersion)
                        .resourceVersionMatch(match).build());
                pages.add(page.items());
                return page.resourceVersion();
            }
            pages.add(page.items());
            read += page.items().size();
        }
        return listVersion;
    }
}
