package dev.operatorstarter.crd.maven;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.operatorstarter.crd.generator.CrdGenerator;
import dev.operatorstarter.crd.generator.CrdOptions;
import dev.operatorstarter.crd.maven.fixtures.Gadgets;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What the plugin's goals do, without Maven: find the resource classes, write their CRDs, compare them. */
class CrdFilesTest {

    private static final CrdGenerator GENERATOR = CrdGenerator.create(CrdOptions.builder().header("generated").build());

    private static Path testClasses() throws URISyntaxException {
        return Path.of(Gadgets.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    }

    @Test
    void scanningFindsEveryConcreteCustomResourceClassAndNothingElse() throws Exception {
        assertThat(CustomResourceClasses.scan(testClasses(), getClass().getClassLoader()))
                .containsExactly(Gadgets.Gizmo.class, Gadgets.V1.class, Gadgets.V1alpha1.class);
    }

    @Test
    void aClassNamedThatIsNotAResourceOrNotThereIsRefusedByName() {
        ClassLoader loader = getClass().getClassLoader();
        assertThatThrownBy(() -> CustomResourceClasses.named(List.of(Gadgets.Unrelated.class.getName()), loader))
                .hasMessageContaining(Gadgets.Unrelated.class.getName()).hasMessageContaining("is not a concrete subclass");
        assertThatThrownBy(() -> CustomResourceClasses.named(List.of("com.example.Missing"), loader))
                .hasMessageContaining("com.example.Missing is not on the project's compile classpath");
    }

    @Test
    void theVersionsOfOneResourceGoIntoOneFileNamedAfterItsCrd() throws Exception {
        CrdFiles files = CrdFiles.render(CustomResourceClasses.scan(testClasses(), getClass().getClassLoader()),
                GENERATOR);

        assertThat(files.files()).extracting(CrdFiles.CrdFile::fileName)
                .containsExactly("gadgets.maven.operatorstarter.dev.yaml", "gizmos.maven.operatorstarter.dev.yaml");
        CrdFiles.CrdFile gadgets = files.files().get(0);
        assertThat(gadgets.classes()).containsExactly(Gadgets.V1.class.getName(), Gadgets.V1alpha1.class.getName());
        assertThat(gadgets.yaml()).startsWith("# generated\n").contains("name: v1\n").contains("name: v1alpha1\n");
        assertThat(files.files().get(1).yaml()).contains("scope: Cluster");
    }

    @Test
    void writingLeavesCurrentFilesUntouchedAndRewritesChangedOnes(@TempDir Path directory) throws Exception {
        CrdFiles files = CrdFiles.render(List.of(Gadgets.V1.class, Gadgets.V1alpha1.class), GENERATOR);
        Path file = directory.resolve("gadgets.maven.operatorstarter.dev.yaml");

        assertThat(files.write(directory)).containsExactly(file);
        Files.setLastModifiedTime(file, FileTime.from(Instant.parse("2020-01-01T00:00:00Z")));
        assertThat(files.write(directory)).as("already current").isEmpty();
        assertThat(Files.getLastModifiedTime(file).toInstant()).isEqualTo(Instant.parse("2020-01-01T00:00:00Z"));

        Files.writeString(file, "stale");
        assertThat(files.write(directory)).containsExactly(file);
        assertThat(file).hasContent(files.files().get(0).yaml());
    }

    @Test
    void checkingNamesTheMissingFileAndTheFirstLineThatDiffers(@TempDir Path directory) {
        CrdFiles files = CrdFiles.render(List.of(Gadgets.V1.class, Gadgets.V1alpha1.class, Gadgets.Gizmo.class),
                GENERATOR);
        files.write(directory);
        assertThat(files.stale(directory)).isEmpty();

        Path gadgets = directory.resolve("gadgets.maven.operatorstarter.dev.yaml");
        CrdFiles.render(List.of(Gadgets.V1.class), GENERATOR).write(directory); // v1alpha1 gone from the file
        List<String> stale = CrdFiles.render(List.of(Gadgets.V1.class, Gadgets.V1alpha1.class), GENERATOR)
                .stale(directory);
        assertThat(stale).singleElement().asString().startsWith(gadgets + " is not what "
                + Gadgets.V1.class.getName() + ", " + Gadgets.V1alpha1.class.getName() + " give: line ");

        assertThat(CrdFiles.render(List.of(Gadgets.Gizmo.class), GENERATOR).stale(directory.resolve("elsewhere")))
                .singleElement().asString().endsWith("gizmos.maven.operatorstarter.dev.yaml is missing (the CRD of "
                        + Gadgets.Gizmo.class.getName() + ")");
    }
}
