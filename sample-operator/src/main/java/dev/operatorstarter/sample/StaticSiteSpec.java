package dev.operatorstarter.sample;

import com.fasterxml.jackson.annotation.JsonClassDescription;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.operatorstarter.crd.Default;
import dev.operatorstarter.crd.ValidationRule;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Size;
import java.util.Map;
import java.util.TreeMap;

/**
 * What a {@link StaticSite} serves, and how many web servers serve it.
 *
 * @param content the site's files, file name to file text; the API server requires at least one
 *        and allows letters, digits, {@code -}, {@code _} and {@code .} in names
 * @param replicas web-server replicas, 0 to 10; the API server defaults it to 1
 */
@JsonClassDescription("What the site serves and how many web-server replicas serve it.")
public record StaticSiteSpec(
        @JsonPropertyDescription("The site's files, file name to file text (index.html first of all).")
        @NotNull @Size(min = 1, max = 64)
        @ValidationRule(rule = "self.all(f, f.matches('^[-._a-zA-Z0-9]+$'))",
                message = "file names may hold only letters, digits, '-', '_' and '.'")
        Map<String, String> content,
        @JsonPropertyDescription("Web-server replicas.") @Min(0) @Max(10) @Default("1") int replicas) {

    public StaticSiteSpec {
        content = content == null ? Map.of() : new TreeMap<>(content); // sorted: a stable content hash
        if (replicas < 0 || replicas > 10) {
            throw new IllegalArgumentException("spec.replicas must be between 0 and 10, was " + replicas);
        }
    }
}
