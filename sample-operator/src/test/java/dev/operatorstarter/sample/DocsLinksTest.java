package dev.operatorstarter.sample;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Every relative link in the README, the changelog, the chart's README and the docs resolves: the
 * file or folder exists, and an anchor ({@code file.md#section} or {@code #section}) names a
 * heading of the target as GitHub makes its id. Links inside code are not links and are skipped,
 * and so are absolute URLs.
 */
class DocsLinksTest {

    private static final Path ROOT = Chart.DIRECTORY.resolve("../..").normalize();
    /** {@code [text](target)} and {@code ![alt](target)}, the target up to a space or the closing parenthesis. */
    private static final Pattern LINK = Pattern.compile("!?\\[[^\\]]*\\]\\(([^)\\s]+)(?:\\s+\"[^\"]*\")?\\)");
    private static final Pattern FENCE = Pattern.compile("(?ms)^\\s*```.*?^\\s*```[^\\n]*$");
    private static final Pattern INLINE_CODE = Pattern.compile("`[^`\\n]*`");
    private static final Pattern HEADING = Pattern.compile("(?m)^#{1,6}\\s+(.+?)\\s*#*\\s*$");
    private static final Pattern HTML_ANCHOR = Pattern.compile("<a\\s+(?:name|id)=\"([^\"]+)\"");

    @Test
    void everyRelativeLinkInTheDocsResolvesAnchorsIncluded() throws IOException {
        List<String> broken = new ArrayList<>();
        Map<Path, Set<String>> anchors = new HashMap<>();
        int checked = 0;
        for (Path doc : documents()) {
            String text = INLINE_CODE.matcher(FENCE.matcher(Files.readString(doc)).replaceAll("")).replaceAll("");
            Matcher link = LINK.matcher(text);
            while (link.find()) {
                String target = link.group(1);
                if (target.matches("^[a-zA-Z][a-zA-Z0-9+.-]*:.*")) {
                    continue; // https:, mailto: and the like
                }
                checked++;
                int hash = target.indexOf('#');
                String file = hash < 0 ? target : target.substring(0, hash);
                Path resolved = file.isEmpty() ? doc : doc.getParent().resolve(file).normalize();
                String where = ROOT.relativize(doc) + ": (" + target + ")";
                if (!Files.exists(resolved)) {
                    broken.add(where + " names " + ROOT.relativize(resolved) + ", which does not exist");
                    continue;
                }
                if (hash >= 0) {
                    String anchor = target.substring(hash + 1);
                    if (!resolved.toString().endsWith(".md")) {
                        broken.add(where + " has an anchor into a file that is not Markdown");
                    } else if (!anchors.computeIfAbsent(resolved, DocsLinksTest::anchorsOf).contains(anchor)) {
                        broken.add(where + ": " + ROOT.relativize(resolved) + " has no heading whose id is " + anchor);
                    }
                }
            }
        }
        assertThat(checked).as("links checked").isGreaterThan(50);
        assertThat(broken).as("broken links").isEmpty();
    }

    @Test
    void headingIdsAreMadeAsGitHubMakesThem() {
        assertThat(anchorsIn("""
                # Quick start: the client
                ## `Manager` and `@Reconciler` (plain Java)
                ## Install
                ## Install
                ```
                # not a heading
                ```
                <a id="custom"></a>
                """)).containsExactlyInAnyOrder("quick-start-the-client", "manager-and-reconciler-plain-java",
                "install", "install-1", "custom");
    }

    /** README.md, CHANGELOG.md, helm/README.md and every Markdown file under docs/. */
    static List<Path> documents() throws IOException {
        List<Path> documents = new ArrayList<>(DocsSnippetsTest.docs());
        for (String other : List.of("CHANGELOG.md", "helm/README.md")) {
            if (Files.exists(ROOT.resolve(other))) {
                documents.add(ROOT.resolve(other));
            }
        }
        return documents;
    }

    private static Set<String> anchorsOf(Path markdown) {
        try {
            return anchorsIn(Files.readString(markdown));
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** The ids GitHub gives the headings of {@code markdown} (duplicates numbered), and explicit HTML anchors. */
    static Set<String> anchorsIn(String markdown) {
        Set<String> ids = new HashSet<>();
        Map<String, Integer> seen = new HashMap<>();
        String text = FENCE.matcher(markdown).replaceAll("");
        Matcher heading = HEADING.matcher(text);
        while (heading.find()) {
            String slug = slug(heading.group(1));
            int count = seen.merge(slug, 1, Integer::sum);
            ids.add(count == 1 ? slug : slug + "-" + (count - 1));
        }
        Matcher html = HTML_ANCHOR.matcher(markdown);
        while (html.find()) {
            ids.add(html.group(1));
        }
        return ids;
    }

    /** GitHub's heading id: link text for links, lower case, punctuation but hyphens and underscores dropped, spaces as hyphens. */
    static String slug(String heading) {
        String text = heading.replaceAll("!?\\[([^\\]]*)\\]\\([^)]*\\)", "$1").toLowerCase(Locale.ROOT);
        return text.replaceAll("[^\\p{L}\\p{N}\\s_-]", "").replace(' ', '-');
    }
}
