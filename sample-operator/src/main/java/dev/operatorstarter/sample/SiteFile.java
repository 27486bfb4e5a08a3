package dev.operatorstarter.sample;

import com.fasterxml.jackson.annotation.JsonClassDescription;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * One file of a {@link StaticSite} ({@code v1}): its name, which becomes a key of the site's
 * ConfigMap (so letters, digits, {@code -}, {@code _} and {@code .}, at most 253), and its text.
 *
 * @param name the file name, such as {@code index.html}
 * @param content the file's text
 */
@JsonClassDescription("A file of the site.")
public record SiteFile(
        @JsonPropertyDescription("The file name: letters, digits, '-', '_' and '.'.")
        @NotNull @Size(min = 1, max = 253) @Pattern(regexp = "^[-._a-zA-Z0-9]+$") String name,
        @JsonPropertyDescription("The file's text.") @NotNull String content) {

    /** {@code content} (file name to text) as files in name order. */
    public static List<SiteFile> sorted(Map<String, String> content) {
        return new TreeMap<>(content).entrySet().stream().map(file -> new SiteFile(file.getKey(), file.getValue()))
                .toList();
    }
}
