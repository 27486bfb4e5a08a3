package dev.operatorstarter.sample;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Properties;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

/**
 * Code in the docs is taken from code that compiles and runs: a fenced block whose first line is
 * {@code // file: <path>} (or {@code # file:}, {@code <!-- file: -->}) must be an excerpt of that
 * file, its lines appearing there in the same order (indentation aside); a line {@code // ...},
 * {@code # ...} or {@code <!-- ... -->} stands for lines left out. A path under
 * {@value #GENERATED} names a file of the project the archetype generates in its integration test
 * (operator-starter-archetype's {@code projects/greeting}): it is compared with the archetype's
 * template, with that project's properties filled in.
 */
class DocsSnippetsTest {

    private static final Path ROOT = Chart.DIRECTORY.resolve("../..").normalize();
    private static final Pattern BLOCK = Pattern.compile("(?m)^```[a-z]*\\n(.*?)^```", Pattern.DOTALL);
    /** The folder of the project the archetype's integration test generates, as the docs name it. */
    static final String GENERATED = "greeting-operator/";
    private static final Path ARCHETYPE = Path.of("operator-starter-archetype/src/main/resources/archetype-resources");
    private static final Path ARCHETYPE_PROPERTIES = Path.of(
            "operator-starter-archetype/src/test/resources/projects/greeting/archetype.properties");
    private static final Pattern MARKER = Pattern.compile("^\\s*(?://|#|<!--)\\s*file:\\s*(\\S+)\\s*(?:-->)?\\s*$");

    @Test
    void everyMarkedSnippetInTheDocsIsAnExcerptOfTheFileItNames() throws IOException {
        List<String> problems = new ArrayList<>();
        int checked = 0;
        for (Path doc : docs()) {
            Matcher block = BLOCK.matcher(Files.readString(doc));
            while (block.find()) {
                List<String> lines = block.group(1).lines().toList();
                Matcher marker = lines.isEmpty() ? null : MARKER.matcher(lines.get(0));
                if (marker == null || !marker.matches()) {
                    continue;
                }
                checked++;
                Path source = marker.group(1).startsWith(GENERATED) ? template(marker.group(1)) : ROOT.resolve(marker.group(1));
                if (!Files.isRegularFile(source)) {
                    problems.add(ROOT.relativize(doc) + ": names " + marker.group(1) + ", which does not exist");
                    continue;
                }
                List<String> text = marker.group(1).startsWith(GENERATED) ? generated(source) : Files.readAllLines(source);
                String missing = firstLineNotInOrder(lines.subList(1, lines.size()), text);
                if (missing != null) {
                    problems.add(ROOT.relativize(doc) + ": the excerpt of " + marker.group(1) + " has a line that is "
                            + "not in the file (or not in this order): " + missing.strip());
                }
            }
        }
        assertThat(problems).isEmpty();
        assertThat(checked).as("marked snippets found").isGreaterThanOrEqualTo(10);
    }

    @Test
    void everySamplePropertyIsInTheConfigurationReference() throws IOException {
        String reference = Files.readString(ROOT.resolve("docs/configuration.md"));
        List<String> properties = new ArrayList<>();
        var metadata = DocsSnippetsTest.class.getClassLoader().getResources("META-INF/spring-configuration-metadata.json");
        while (metadata.hasMoreElements()) {
            try (var in = metadata.nextElement().openStream()) {
                JsonMapper.builder().build().readTree(in).path("properties").forEach(property -> {
                    if (property.path("name").asString().startsWith("sample.")) {
                        properties.add(property.path("name").asString());
                    }
                });
            }
        }
        assertThat(properties).as("the sample's configuration metadata").isNotEmpty();
        assertThat(properties).allSatisfy(property -> assertThat(reference).contains("| `" + property + "` |"));
    }

    /**
     * What the docs say of the version holds for the project the archetype generates: the docs'
     * {@code archetype:generate} commands name this build's version, and a project generated with
     * them (no {@code -Dversion}) has that version and uses operator-starter-parent at that version,
     * as the generated files the docs show do.
     */
    @Test
    void theDocsCommandsGenerateAProjectOfThisBuildsVersionOnThisBuildsParent() throws IOException {
        String version = firstMatch(Files.readString(ROOT.resolve("pom.xml")),
                "<artifactId>operator-starter-build</artifactId>\\s*<version>([^<]+)</version>");
        String parent = Files.readString(ROOT.resolve("operator-starter-parent/pom.xml"));
        String template = Files.readString(ROOT.resolve(ARCHETYPE).resolve("pom.xml"));
        String descriptor = Files.readString(ROOT.resolve(
                "operator-starter-archetype/src/main/resources/META-INF/maven/archetype-metadata.xml"));

        assertThat(firstMatch(parent, "<artifactId>operator-starter-parent</artifactId>\\s*<version>([^<]+)</version>"))
                .as("operator-starter-parent's version").isEqualTo(version);
        assertThat(firstMatch(parent, "<operator-starter.version>([^<]+)</operator-starter.version>"))
                .as("the starter's version in operator-starter-parent").isEqualTo(version);
        assertThat(firstMatch(template, "<artifactId>operator-starter-parent</artifactId>\\s*<version>([^<]+)</version>"))
                .as("the generated project's parent version").isEqualTo(version);
        assertThat(firstMatch(descriptor, "<requiredProperty key=\"version\">\\s*<defaultValue>([^<]+)</defaultValue>"))
                .as("the generated project's own version when archetype:generate is given none").isEqualTo(version);
        assertThat(archetypeProperties().getProperty("version")).as("the version of the project the docs show")
                .isEqualTo(version);
        for (Path doc : List.of(ROOT.resolve("README.md"), ROOT.resolve("docs/getting-started.md"))) {
            String text = Files.readString(doc);
            assertThat(text).as("%s's archetype:generate", ROOT.relativize(doc)).contains("-DarchetypeVersion=" + version)
                    .doesNotContain("-Dversion=");
        }
        assertThat(Files.readString(ROOT.resolve("docs/getting-started.md")))
                .contains("so that `" + version + "` is in your local Maven repository")
                .contains("target/greeting-operator-" + version + ".jar");
    }

    private static String firstMatch(String text, String regex) {
        Matcher matcher = Pattern.compile(regex).matcher(text);
        assertThat(matcher.find()).as("%s in the file", regex).isTrue();
        return matcher.group(1).strip();
    }

    /** Every Markdown file under docs/, then README.md. */
    static List<Path> docs() throws IOException {
        try (Stream<Path> files = Files.walk(ROOT.resolve("docs"))) {
            List<Path> docs = new ArrayList<>(files.filter(file -> file.toString().endsWith(".md")).sorted().toList());
            docs.add(ROOT.resolve("README.md"));
            return docs;
        }
    }

    /** The archetype template a generated file comes from: its package folders and kind taken out of the path. */
    static Path template(String generatedPath) throws IOException {
        Properties properties = archetypeProperties();
        String path = generatedPath.substring(GENERATED.length())
                .replace(properties.getProperty("package").replace('.', '/') + "/", "")
                .replace(properties.getProperty("kind"), "__kind__");
        return ROOT.resolve(ARCHETYPE).resolve(path);
    }

    /** A template's lines with the integration test's properties filled in, as the archetype does. */
    static List<String> generated(Path template) throws IOException {
        Properties properties = archetypeProperties();
        String text = Files.readString(template)
                .replace("${kind.toLowerCase()}", properties.getProperty("kind").toLowerCase(Locale.ROOT));
        for (String name : properties.stringPropertyNames()) {
            text = text.replace("${" + name + "}", properties.getProperty(name));
        }
        return text.lines().toList();
    }

    private static Properties archetypeProperties() throws IOException {
        Properties properties = new Properties();
        try (var in = Files.newBufferedReader(ROOT.resolve(ARCHETYPE_PROPERTIES))) {
            properties.load(in);
        }
        return properties;
    }

    /** The first excerpt line that does not follow the previous ones in {@code file}, or null. */
    private static String firstLineNotInOrder(List<String> excerpt, List<String> file) {
        int at = 0;
        for (String line : excerpt) {
            String wanted = line.strip();
            if (wanted.isEmpty() || wanted.equals("// ...") || wanted.startsWith("// ... ") || wanted.equals("# ...")
                    || wanted.equals("<!-- ... -->")) {
                continue;
            }
            while (at < file.size() && !file.get(at).strip().equals(wanted)) {
                at++;
            }
            if (at == file.size()) {
                return line;
            }
            at++;
        }
        return null;
    }
}
