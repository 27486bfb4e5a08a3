package dev.operatorstarter;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * {@code dev.operatorstarter.internal} is used only inside operator-runtime: the sources (main and
 * test, the archetype's templates too) of every other module of this repository name none of its
 * types, except the modules {@link #INTERNAL_USERS} names with a reason (none today). The other
 * modules are what users write too (the starter, the sample, the CRD generator, the benchmarks),
 * so what they need is API ({@link ApiSurfaceTest}) or a test fixture
 * ({@code operator-runtime-testing}).
 *
 * <p>A scan of the sources rather than of classes: operator-runtime cannot depend on the modules
 * that depend on it, and an import is what a user would write. It sees imports, static imports and
 * fully qualified names ({@code dev.operatorstarter.internal.Json.MAPPER}), in comments too; the
 * package's name alone ({@code "dev.operatorstarter.internal.."} in an ArchUnit rule) is not a use.
 */
class ModuleBoundaryTest {

    /** The repository: the runtime's tests run in {@code operator-runtime/}. */
    private static final Path REPOSITORY = Path.of("..").toAbsolutePath().normalize();

    private static final Pattern INTERNAL_USE = Pattern.compile(
            "\\bdev\\.operatorstarter\\.internal\\.(\\*|[A-Z]\\w*)");

    /** Modules that may use {@code internal}, each with why. A module listed here can break on any release. */
    static final Map<String, String> INTERNAL_USERS = Map.of();

    @Test
    void noOtherModuleUsesTheInternalPackage() {
        List<Path> modules = otherModules();
        assertThat(modules).extracting(module -> module.getFileName().toString())
                .as("the scan sees the modules that used internal before (not run outside the repository)")
                .contains("benchmarks", "operator-crd-generator", "operator-starter-autoconfigure",
                        "operator-runtime-testing", "sample-operator");

        List<String> uses = new ArrayList<>();
        for (Path module : modules) {
            if (INTERNAL_USERS.containsKey(module.getFileName().toString())) {
                continue;
            }
            javaSources(module.resolve("src")).forEach(source -> usesOfInternal(source).forEach(use ->
                    uses.add(REPOSITORY.relativize(source) + ": " + use)));
        }
        assertThat(uses).as("""
                uses of dev.operatorstarter.internal outside operator-runtime: use the API (KubernetesJson for \
                the mapper) or a fixture of operator-runtime-testing, or name the module in INTERNAL_USERS \
                with the reason""").isEmpty();
    }

    @Test
    void theModulesAllowedToUseInternalExist() {
        Set<String> modules = otherModules().stream().map(module -> module.getFileName().toString())
                .collect(Collectors.toSet());
        assertThat(modules).containsAll(INTERNAL_USERS.keySet());
    }

    /** Every directory of the repository with a {@code pom.xml}, other than operator-runtime. */
    private static List<Path> otherModules() {
        try (Stream<Path> children = Files.list(REPOSITORY)) {
            return children.filter(child -> Files.isRegularFile(child.resolve("pom.xml")))
                    .filter(child -> !child.getFileName().toString().equals("operator-runtime")).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static List<Path> javaSources(Path directory) {
        if (!Files.isDirectory(directory)) {
            return List.of();
        }
        try (Stream<Path> files = Files.walk(directory)) {
            return files.filter(file -> file.toString().endsWith(".java")).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Each line of {@code source} that names a type of {@code internal}, with its number. */
    private static List<String> usesOfInternal(Path source) {
        List<String> uses = new ArrayList<>();
        try {
            List<String> lines = Files.readAllLines(source);
            for (int i = 0; i < lines.size(); i++) {
                Matcher use = INTERNAL_USE.matcher(lines.get(i));
                if (use.find()) {
                    uses.add("line " + (i + 1) + ": " + lines.get(i).strip());
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return uses;
    }
}
