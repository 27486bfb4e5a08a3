package dev.operatorstarter.crd.generator;

import static org.assertj.core.api.Assertions.fail;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.assertj.core.util.diff.DiffUtils;

/**
 * Golden files under {@code src/test/resources/golden}: the expected output, byte for byte. A
 * mismatch fails with a unified diff (golden file first). To accept new output, run the tests
 * with {@code -Dgolden.update=true}, which rewrites every golden file from the output (and passes),
 * then review the change with {@code git diff}:
 *
 * <pre>
 * mvn -B -pl operator-crd-generator test -Dtest=CrdGeneratorGoldenTest -Dgolden.update=true
 * </pre>
 */
final class GoldenFiles {

    private static final Path DIRECTORY = Path.of(System.getProperty("golden.dir", "src/test/resources/golden"));

    private GoldenFiles() {
    }

    static boolean updating() {
        return Boolean.getBoolean("golden.update");
    }

    static void assertMatches(String name, String actual) {
        Path golden = DIRECTORY.resolve(name);
        try {
            if (updating()) {
                Files.createDirectories(golden.getParent());
                Files.writeString(golden, actual, StandardCharsets.UTF_8);
                return;
            }
            if (!Files.exists(golden)) {
                fail("golden file " + golden.toAbsolutePath() + " is missing; create it with -Dgolden.update=true, "
                        + "output was:%n%s", actual);
            }
            String expected = Files.readString(golden, StandardCharsets.UTF_8);
            if (!expected.equals(actual)) {
                fail("output differs from golden file " + golden + " (rewrite with -Dgolden.update=true):%n%s",
                        diff(name, expected, actual));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String diff(String name, String expected, String actual) {
        List<String> before = expected.lines().toList();
        List<String> after = actual.lines().toList();
        List<String> diff = DiffUtils.generateUnifiedDiff("golden/" + name, "generated", before,
                DiffUtils.diff(before, after), 3);
        if (diff.isEmpty()) {
            return "(the lines are the same: the files differ in line endings or the final newline)";
        }
        return String.join(System.lineSeparator(), diff);
    }
}
