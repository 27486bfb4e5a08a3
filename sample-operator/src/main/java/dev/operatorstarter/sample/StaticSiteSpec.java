package dev.operatorstarter.sample;

import com.fasterxml.jackson.annotation.JsonClassDescription;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.operatorstarter.crd.Default;
import dev.operatorstarter.crd.ListMapKeys;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Size;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a {@link StaticSite} serves, and how many web servers serve it ({@code v1}).
 *
 * <p>{@code v1alpha1} held the files as a map of name to text; {@code v1} holds a list of named
 * files, as Kubernetes' API conventions prefer (a list of subobjects with a name key, merged by
 * that key, rather than a map), and the API server keeps the names unique
 * ({@code x-kubernetes-list-type: map}).
 *
 * @param files the site's files, 1 to 64, names unique
 * @param replicas web-server replicas, 0 to 10; the API server defaults it to 1
 */
@JsonClassDescription("What the site serves and how many web-server replicas serve it.")
public record StaticSiteSpec(
        @JsonPropertyDescription("The site's files (index.html first of all), each name once.")
        @NotNull @Size(min = 1, max = 64) @ListMapKeys("name")
        List<SiteFile> files,
        @JsonPropertyDescription("Web-server replicas.") @Min(0) @Max(10) @Default("1") int replicas) {

    /**
     * Checks nothing: the mutating webhook decodes a site before the API server validates it
     * against the schema, so a site with 11 replicas must decode, and be refused by the schema
     * with the field named.
     */
    public StaticSiteSpec {
        files = files == null ? List.of() : Collections.unmodifiableList(new ArrayList<>(files)); // nulls too
    }

    /** The files as name to text, in the order of {@link #files()} (a later duplicate name wins). */
    public Map<String, String> filesByName() {
        Map<String, String> byName = new LinkedHashMap<>();
        files.forEach(file -> byName.put(file.name(), file.content()));
        return byName;
    }
}
