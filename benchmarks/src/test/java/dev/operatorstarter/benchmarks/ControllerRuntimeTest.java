package dev.operatorstarter.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ControllerRuntimeTest {

    @TempDir
    Path folder;

    @Test
    void theVersionIsTheOneTheWrapperModulePins() {
        assertThat(ControllerRuntime.version()).isEqualTo("v0.25.2");
        assertThat(ControllerRuntime.label()).isEqualTo("controller-runtime v0.25.2");
        assertThat(ControllerRuntime.version("module m\n\nrequire sigs.k8s.io/controller-runtime v0.99.1\n"))
                .isEqualTo("v0.99.1");
        assertThatThrownBy(() -> ControllerRuntime.version("module m\n")).hasMessageContaining(
                "does not require sigs.k8s.io/controller-runtime");
    }

    @Test
    void everySourceShipsInTheJarAndTheGoModuleHasNoProxyOrReplaceLines() {
        for (String source : ControllerRuntime.SOURCES) {
            assertThat(ControllerRuntime.read(source)).as(source).isNotEmpty();
        }
        String goMod = new String(ControllerRuntime.read("go.mod"), StandardCharsets.UTF_8);
        assertThat(goMod).doesNotContain("GOPROXY").doesNotContain("replace");
    }

    @Test
    void everyFileOfTheModuleIsASourceSoTheBuildAndTheCacheKeySeeIt() throws IOException {
        try (var files = Files.list(Path.of("src/main/go/controller-runtime"))) {
            assertThat(files.map(file -> file.getFileName().toString()).toList())
                    .containsExactlyInAnyOrderElementsOf(ControllerRuntime.SOURCES);
        }
    }

    @Test
    void theCacheKeyNamesTheProgramVersionAndPlatformAndIsStable() {
        String key = ControllerRuntime.cacheKey();

        assertThat(key).matches("controller-runtime-bench-v0\\.25\\.2_[a-z]+-[a-z0-9_]+_[0-9a-f]{12}");
        assertThat(ControllerRuntime.cacheKey()).isEqualTo(key);
    }

    @Test
    void theBuildIsStaticStrippedAndWritesTheProgramWhereAsked() {
        assertThat(ControllerRuntime.command(Path.of("/usr/local/go/bin/go"), Path.of("/cache/e/controller-runtime-bench")))
                .containsExactly("/usr/local/go/bin/go", "build", "-trimpath", "-ldflags", "-s -w", "-o",
                        "/cache/e/controller-runtime-bench", ".");
    }

    @Test
    void goIsFoundOnThePathBeforeGoroot() throws IOException {
        Path onPath = executable(folder.resolve("path/go"));
        Path inGoroot = executable(folder.resolve("root/bin/go"));

        assertThat(ControllerRuntime.go(Map.of("PATH", folder.resolve("empty") + ":" + onPath.getParent(), "GOROOT",
                inGoroot.getParent().getParent().toString()))).contains(onPath);
        assertThat(ControllerRuntime.go(Map.of("GOROOT", inGoroot.getParent().getParent().toString()))).contains(inGoroot);
    }

    @Test
    void anEntryIsIntactOnlyWhenTheProgramMatchesItsManifest() throws IOException {
        Path entry = Files.createDirectories(folder.resolve("entry"));
        assertThat(ControllerRuntime.intact(entry)).isFalse();
        Path program = executable(entry.resolve(ControllerRuntime.FILE));
        Files.writeString(program, "binary");
        assertThat(ControllerRuntime.intact(entry)).as("no manifest: an interrupted build").isFalse();
        // size:sha256 of "binary"
        Files.writeString(entry.resolve("manifest"),
                "6:9a3a45d01531a20e89ac6ae10b0b0beb0492acd7216a368aa062d1a5fecaf9cd\n");
        assertThat(ControllerRuntime.intact(entry)).isTrue();
        Files.writeString(program, "binarX");
        assertThat(ControllerRuntime.intact(entry)).as("changed after the build").isFalse();
    }

    private static Path executable(Path file) throws IOException {
        Files.createDirectories(file.getParent());
        Files.writeString(file, "#!/bin/sh\n");
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-xr-x"));
        return file;
    }
}
