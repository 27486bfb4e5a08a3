package dev.operatorstarter.sample;

import com.fasterxml.jackson.annotation.JsonClassDescription;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.operatorstarter.client.CustomResource;
import dev.operatorstarter.crd.Default;
import dev.operatorstarter.crd.PrinterColumn;
import dev.operatorstarter.crd.ValidationRule;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Kind;
import io.fabric8.kubernetes.model.annotation.ShortNames;
import io.fabric8.kubernetes.model.annotation.Version;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Size;
import java.util.Map;
import java.util.TreeMap;

/**
 * {@link StaticSite} as version {@code v1alpha1} declared it: the files as a map of name to text.
 * Still served, deprecated, and not stored: the API server converts what clients read and write in
 * this version to and from {@code v1} through {@link StaticSiteConverter}, so
 * {@code examples/hello-site.yaml}, written as {@code v1alpha1}, keeps working. The operator never
 * reads it; the class exists for the CRD generator and the converter.
 */
@Group(StaticSite.GROUP)
@Version(value = StaticSiteV1alpha1.VERSION, storage = false, deprecated = true,
        deprecationWarning = "sample.operatorstarter.dev/v1alpha1 StaticSite is deprecated; use "
                + "sample.operatorstarter.dev/v1, whose spec.files replaces spec.content")
@Kind(StaticSite.KIND)
@ShortNames("ssite")
@JsonClassDescription("A static web site served by a web-server Deployment from the files in its spec.")
@PrinterColumn(name = "Replicas", type = PrinterColumn.Type.INTEGER, jsonPath = ".spec.replicas")
@PrinterColumn(name = "Ready-Replicas", type = PrinterColumn.Type.INTEGER, jsonPath = ".status.readyReplicas")
@PrinterColumn(name = "Ready", jsonPath = ".status.conditions[?(@.type==\"Ready\")].status")
@PrinterColumn(name = "URL", jsonPath = ".status.url", priority = 1)
@PrinterColumn(name = "Age", type = PrinterColumn.Type.DATE, jsonPath = ".metadata.creationTimestamp")
public class StaticSiteV1alpha1 extends CustomResource<StaticSiteV1alpha1.@NotNull Spec, StaticSiteStatus>
        implements Namespaced {

    public static final String VERSION = "v1alpha1";

    /**
     * What a {@code v1alpha1} site serves.
     *
     * @param content the site's files, file name to file text
     * @param replicas web-server replicas, 0 to 10; the API server defaults it to 1
     */
    @JsonClassDescription("What the site serves and how many web-server replicas serve it.")
    public record Spec(
            @JsonPropertyDescription("The site's files, file name to file text (index.html first of all).")
            @NotNull @Size(min = 1, max = 64)
            @ValidationRule(rule = "self.all(f, f.matches('^[-._a-zA-Z0-9]+$'))",
                    message = "file names may hold only letters, digits, '-', '_' and '.'")
            Map<String, String> content,
            @JsonPropertyDescription("Web-server replicas.") @Min(0) @Max(10) @Default("1") int replicas) {

        public Spec {
            content = content == null ? Map.of() : new TreeMap<>(content);
        }
    }
}
