package dev.operatorstarter.crd.generator.shapes;

import com.fasterxml.jackson.annotation.JsonClassDescription;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.operatorstarter.client.CustomResource;
import dev.operatorstarter.crd.Default;
import dev.operatorstarter.crd.ListMapKeys;
import dev.operatorstarter.crd.PrinterColumn;
import dev.operatorstarter.crd.ValidationRule;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.ShortNames;
import io.fabric8.kubernetes.model.annotation.Version;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.PositiveOrZero;
import jakarta.validation.constraints.Size;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.Map;

/**
 * The sample operator's StaticSite (sample-operator, dev.operatorstarter.sample.StaticSite*), its
 * shape copied and annotated so that the generated CRD equals the chart's hand-written one
 * ({@code helm/sample-operator/files/crds/staticsites.sample.operatorstarter.dev.yaml}).
 */
@Group("sample.operatorstarter.dev")
@Version("v1alpha1")
@ShortNames("ssite")
@JsonClassDescription("A static web site served by a web-server Deployment from the files in its spec.")
@PrinterColumn(name = "Replicas", type = PrinterColumn.Type.INTEGER, jsonPath = ".spec.replicas")
@PrinterColumn(name = "Ready-Replicas", type = PrinterColumn.Type.INTEGER, jsonPath = ".status.readyReplicas")
@PrinterColumn(name = "Ready", jsonPath = ".status.conditions[?(@.type==\"Ready\")].status")
@PrinterColumn(name = "URL", jsonPath = ".status.url", priority = 1)
@PrinterColumn(name = "Age", type = PrinterColumn.Type.DATE, jsonPath = ".metadata.creationTimestamp")
public class StaticSite extends CustomResource<StaticSite.@NotNull Spec, StaticSite.Status> implements Namespaced {

    @JsonClassDescription("What the site serves and how many web-server replicas serve it.")
    public record Spec(
            @JsonPropertyDescription("The site's files, file name to file text (index.html first of all).")
            @NotNull @Size(min = 1, max = 64)
            @ValidationRule(rule = "self.all(f, f.matches('^[-._a-zA-Z0-9]+$'))",
                    message = "file names may hold only letters, digits, '-', '_' and '.'")
            Map<String, String> content,
            @JsonPropertyDescription("Web-server replicas.") @Min(0) @Max(10) @Default("1") int replicas) {
    }

    @JsonClassDescription("What the operator last saw and did.")
    public record Status(
            @JsonPropertyDescription("The metadata.generation this status describes.") Long observedGeneration,
            @JsonPropertyDescription("Web-server replicas that are available.") Integer readyReplicas,
            @JsonPropertyDescription("The site's address inside the cluster.") String url,
            @JsonPropertyDescription("Ready and Progressing, with Kubernetes' condition conventions.")
            @ListMapKeys("type") List<Condition> conditions) {
    }

    /** Kubernetes' condition, with the bounds its own types declare. */
    public record Condition(
            @NotNull @Size(max = 316) String type,
            @NotNull ConditionStatus status,
            @PositiveOrZero Long observedGeneration,
            @NotNull OffsetDateTime lastTransitionTime,
            @NotNull @Size(max = 1024) String reason,
            @NotNull @Size(max = 32768) String message) {
    }

    public enum ConditionStatus {
        @JsonProperty("True") TRUE,
        @JsonProperty("False") FALSE,
        Unknown
    }
}
