package dev.operatorstarter.client;

import io.fabric8.kubernetes.api.model.ListMeta;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * One page of a list: the items and the list's metadata ({@code resourceVersion},
 * {@code continue}, {@code remainingItemCount}).
 */
public record ResourceList<T>(@Nullable String apiVersion, @Nullable String kind, @Nullable ListMeta metadata,
        @Nullable List<T> items) {

    public ResourceList {
        items = items == null ? List.of() : List.copyOf(items);
    }

    @Override
    public List<T> items() {
        return items == null ? List.of() : items;
    }

    /** The resourceVersion of the list: watch from here to see every later change. */
    public String resourceVersion() {
        return metadata == null || metadata.getResourceVersion() == null ? "" : metadata.getResourceVersion();
    }

    /** The token for the next page, or empty when this is the last page. */
    public String continueToken() {
        return metadata == null || metadata.getContinue() == null ? "" : metadata.getContinue();
    }
}
