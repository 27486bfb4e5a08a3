package dev.operatorstarter.sample;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The runtime dependencies this build resolves are no older than {@code dependency-minimums.txt}
 * allows, each entry there naming the advisory it answers, and {@code operator-starter-parent}
 * pins the same versions as this build (an operator application resolves through the parent, not
 * through this build). The sample's test class path holds every runtime dependency of the starter;
 * each jar's place in the Maven repository ({@code group/path/artifact/version/}) says what it is.
 */
class DependencyMinimumsTest {

    private static final Path ROOT = Chart.DIRECTORY.resolve("../..").normalize();
    private static final Pattern ENTRY = Pattern.compile("^(\\S+):(\\S+)\\s+(\\S+)\\s+(.+)$");

    record Minimum(String group, String artifact, String version, String advisory) {
        String coordinates() {
            return group + ":" + artifact;
        }
    }

    @Test
    void everyResolvedRuntimeDependencyIsAtLeastItsMinimum() throws IOException {
        List<Minimum> minimums = minimums();
        assertThat(minimums).as("entries in dependency-minimums.txt").hasSizeGreaterThanOrEqualTo(5);
        List<String> classPath = classPath();
        List<String> tooOld = new ArrayList<>();
        List<String> missing = new ArrayList<>();
        for (Minimum minimum : minimums) {
            List<String> resolved = resolvedVersions(classPath, minimum);
            if (resolved.isEmpty()) {
                missing.add(minimum.coordinates());
            }
            for (String version : resolved) {
                if (compare(version, minimum.version()) < 0) {
                    tooOld.add(minimum.coordinates() + " " + version + " is older than " + minimum.version()
                            + " (" + minimum.advisory() + ")");
                }
            }
        }
        assertThat(tooOld).as("runtime dependencies below their minimum").isEmpty();
        assertThat(missing).as("entries of dependency-minimums.txt not on the sample's class path; "
                + "remove an entry whose artifact the starter no longer uses").isEmpty();
    }

    @Test
    void theParentPinsTheVersionsThisBuildResolves() throws IOException {
        String build = Files.readString(ROOT.resolve("pom.xml"));
        String parent = Files.readString(ROOT.resolve("operator-starter-parent/pom.xml"));
        for (String property : List.of("netty.version", "reactor-bom.version", "bouncycastle.version",
                "helm-java.version")) {
            assertThat(property(parent, property)).as("operator-starter-parent's " + property)
                    .isEqualTo(property(build, property));
        }
        Matcher bootParent = Pattern.compile(
                "<artifactId>spring-boot-starter-parent</artifactId>\\s*<version>([^<]+)</version>").matcher(parent);
        assertThat(bootParent.find()).as("operator-starter-parent's parent is spring-boot-starter-parent").isTrue();
        assertThat(bootParent.group(1)).as("operator-starter-parent's Spring Boot version")
                .isEqualTo(property(build, "spring-boot.version"));
    }

    @Test
    void versionsCompareByTheirNumbers() {
        assertThat(compare("4.2.18.Final", "4.2.17.Final")).isPositive();
        assertThat(compare("4.2.9.Final", "4.2.17.Final")).isNegative();
        assertThat(compare("1.85", "1.85")).isZero();
        assertThat(compare("1.80.2", "1.85")).isNegative();
        assertThat(compare("3.8.7", "3.8.6.1")).isPositive();
        assertThat(compare("1.3.7", "1.3")).isPositive();
    }

    static List<Minimum> minimums() throws IOException {
        List<Minimum> minimums = new ArrayList<>();
        for (String line : Files.readAllLines(ROOT.resolve("dependency-minimums.txt"))) {
            String trimmed = line.strip();
            if (trimmed.isEmpty() || trimmed.startsWith("#")) {
                continue;
            }
            Matcher entry = ENTRY.matcher(trimmed);
            assertThat(entry.matches()).as("dependency-minimums.txt line '%s' reads group:artifact minimum advisory", trimmed)
                    .isTrue();
            minimums.add(new Minimum(entry.group(1), entry.group(2), entry.group(3), entry.group(4)));
        }
        return minimums;
    }

    private static List<String> classPath() {
        Map<String, Boolean> entries = new LinkedHashMap<>();
        for (String property : List.of("java.class.path", "surefire.test.class.path")) {
            String value = System.getProperty(property, "");
            for (String entry : value.split(Pattern.quote(File.pathSeparator))) {
                if (!entry.isBlank()) {
                    entries.put(entry.replace(File.separatorChar, '/'), true);
                }
            }
        }
        List<String> jars = new ArrayList<>(entries.keySet());
        assertThat(jars).as("jars on the test class path").anyMatch(jar -> jar.contains("/io/netty/netty-handler/"));
        return jars;
    }

    private static List<String> resolvedVersions(List<String> classPath, Minimum minimum) {
        Pattern jar = Pattern.compile("/" + Pattern.quote(minimum.group().replace('.', '/')) + "/"
                + Pattern.quote(minimum.artifact()) + "/([^/]+)/" + Pattern.quote(minimum.artifact()) + "-[^/]*\\.jar$");
        List<String> versions = new ArrayList<>();
        for (String entry : classPath) {
            Matcher matcher = jar.matcher(entry);
            if (matcher.find()) {
                versions.add(matcher.group(1));
            }
        }
        return versions;
    }

    private static String property(String pom, String name) {
        Matcher matcher = Pattern.compile("<" + Pattern.quote(name) + ">([^<]+)</" + Pattern.quote(name) + ">").matcher(pom);
        assertThat(matcher.find()).as("property %s", name).isTrue();
        return matcher.group(1).strip();
    }

    /**
     * Compares the numeric parts of two versions ({@code 4.2.18.Final} is 4, 2, 18), a missing
     * part counting as 0; qualifiers such as {@code Final} are not compared.
     */
    static int compare(String left, String right) {
        List<Long> a = numbers(left);
        List<Long> b = numbers(right);
        for (int i = 0; i < Math.max(a.size(), b.size()); i++) {
            long x = i < a.size() ? a.get(i) : 0;
            long y = i < b.size() ? b.get(i) : 0;
            if (x != y) {
                return Long.compare(x, y);
            }
        }
        return 0;
    }

    private static List<Long> numbers(String version) {
        List<Long> numbers = new ArrayList<>();
        for (String part : version.split("[.-]")) {
            if (!part.matches("\\d+")) {
                break;
            }
            numbers.add(Long.parseLong(part));
        }
        return numbers;
    }
}
