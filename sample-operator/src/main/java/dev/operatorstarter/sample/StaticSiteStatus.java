package dev.operatorstarter.sample;

import com.fasterxml.jackson.annotation.JsonClassDescription;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.operatorstarter.crd.ListMapKeys;
import io.fabric8.kubernetes.api.model.Condition;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * What the operator last saw and did for a {@link StaticSite}.
 *
 * @param observedGeneration the {@code metadata.generation} this status describes
 * @param readyReplicas web-server replicas that are available
 * @param url the site's address inside the cluster
 * @param conditions {@code Ready} and {@code Progressing}, with Kubernetes' condition rules
 *        (see {@link dev.operatorstarter.controller.Conditions})
 */
@JsonClassDescription("What the operator last saw and did.")
public record StaticSiteStatus(
        @JsonPropertyDescription("The metadata.generation this status describes.") @Nullable Long observedGeneration,
        @JsonPropertyDescription("Web-server replicas that are available.") @Nullable Integer readyReplicas,
        @JsonPropertyDescription("The site's address inside the cluster.") @Nullable String url,
        @JsonPropertyDescription("Ready and Progressing, with Kubernetes' condition conventions.")
        @ListMapKeys("type") @Nullable List<Condition> conditions) {

    /** The condition type that is {@code True} once every replica serves the current content. */
    public static final String READY = "Ready";
    /** The condition type that is {@code True} while the web servers roll out a change. */
    public static final String PROGRESSING = "Progressing";
}
