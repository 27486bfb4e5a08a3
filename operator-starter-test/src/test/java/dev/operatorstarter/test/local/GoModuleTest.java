package dev.operatorstarter.test.local;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class GoModuleTest {

    @TempDir
    Path temp;

    @Test
    void thePinnedVersionsAreReadFromTheWrapperModules() {
        assertThat(GoModule.KUBERNETES.upstreamVersion()).matches("v1\\.\\d+\\.\\d+");
        assertThat(GoModule.ETCD.upstreamVersion()).matches("v3\\.(5|6)\\.\\d+");
    }

    @Test
    void everyKubernetesStagingModuleIsReplacedByTheMatchingPublishedRelease() throws IOException {
        GoModule.KUBERNETES.extractTo(temp);
        String goMod = Files.readString(temp.resolve("go.mod"));
        String staging = "v0." + GoModule.KUBERNETES.upstreamVersion().substring("v1.".length());

        Map<String, String> replaced = new TreeMap<>();
        Matcher replaces = Pattern.compile("(?m)^\\s*(k8s\\.io/[\\w.-]+) => (k8s\\.io/[\\w.-]+) (v\\S+)$").matcher(goMod);
        while (replaces.find()) {
            assertThat(replaces.group(2)).isEqualTo(replaces.group(1));
            replaced.put(replaces.group(1), replaces.group(3));
        }
        // k8s.io/kubernetes requires its staging modules at v0.0.0, which exists nowhere: each
        // one in the build graph must be replaced by its published release.
        Map<String, String> stagingRequirements = new TreeMap<>();
        Matcher requires = Pattern.compile("(?m)^\\s*(k8s\\.io/[\\w.-]+) (v0\\.(?:0\\.0|\\d+\\.\\d+))(?: // indirect)?$")
                .matcher(goMod.substring(0, goMod.indexOf("\nreplace")));
        while (requires.find()) {
            if (requires.group(2).equals("v0.0.0") || requires.group(2).equals(staging)) {
                stagingRequirements.put(requires.group(1), requires.group(2));
            }
        }

        assertThat(replaced).hasSize(33).allSatisfy((module, version) -> assertThat(version).as(module).isEqualTo(staging));
        // Modules in the build graph; the rest of the 33 are replaced too, so that a future import cannot miss one.
        assertThat(stagingRequirements).isNotEmpty();
        assertThat(stagingRequirements.keySet()).isSubsetOf(replaced.keySet());
    }

    @Test
    void theWrapperModulesDeclareTheBinariesAsTools() throws IOException {
        for (GoModule module : List.of(GoModule.KUBERNETES, GoModule.ETCD)) {
            Path dir = temp.resolve(module.directory());
            module.extractTo(dir);
            String goMod = Files.readString(dir.resolve("go.mod"));
            for (Binary binary : Binary.values()) {
                if (binary.module() == module) {
                    assertThat(tools(goMod)).contains(binary.goPackage());
                }
            }
            assertThat(dir.resolve("go.sum")).isNotEmptyFile();
        }
    }

    @Test
    void kwokIsPinnedInAWrapperModuleWhoseMainRunsKwoksCommand() throws IOException {
        Path dir = temp.resolve("kwok");
        GoModule.KWOK.extractTo(dir);

        assertThat(GoModule.KWOK.upstreamVersion()).matches("v0\\.\\d+\\.\\d+");
        assertThat(dir.resolve("go.sum")).isNotEmptyFile();
        assertThat(Files.readString(dir.resolve("main.go"))).contains("\"sigs.k8s.io/kwok/pkg/kwok/cmd\"")
                .contains("\"defaults\"");
        assertThat(Binary.KWOK.module()).isEqualTo(GoModule.KWOK);
        assertThat(Binary.KUBE_SCHEDULER.module()).isEqualTo(GoModule.KUBERNETES);
    }

    @Test
    void kubernetesIsBuiltWithItsReleaseVersionInTheLdflags() {
        String version = GoModule.KUBERNETES.upstreamVersion();
        String minor = version.split("\\.")[1];

        assertThat(Binary.KUBE_APISERVER.ldflags("2026-11-22T00:00:00Z"))
                .contains("-X k8s.io/component-base/version.gitVersion=" + version)
                .contains("-X k8s.io/component-base/version.gitMajor=1")
                .contains("-X k8s.io/component-base/version.gitMinor=" + minor)
                .contains("gitTreeState=clean");
        assertThat(Binary.ETCD.ldflags("x")).doesNotContain("k8s.io");
    }

    @Test
    void theFingerprintDependsOnTheModulesAndTheBuildRecipe() {
        String kubernetes = GoModule.fingerprint("recipe", GoModule.KUBERNETES);

        assertThat(kubernetes).hasSize(12).isEqualTo(GoModule.fingerprint("recipe", GoModule.KUBERNETES));
        assertThat(GoModule.fingerprint("recipe", GoModule.ETCD)).isNotEqualTo(kubernetes);
        assertThat(GoModule.fingerprint("recipe", GoModule.KUBERNETES, GoModule.ETCD)).isNotEqualTo(kubernetes);
        assertThat(GoModule.fingerprint("other recipe", GoModule.KUBERNETES)).isNotEqualTo(kubernetes);
    }

    @Test
    void theBuildRecipeNamesFlagsAndEnvironmentButNoDateOrPath() {
        String recipe = GoToolchain.recipe(List.of(Binary.KUBE_APISERVER));

        assertThat(recipe).contains("CGO_ENABLED=0", "-trimpath", "gitVersion=" + GoModule.KUBERNETES.upstreamVersion())
                .doesNotContain("/usr/", "2026-");
    }

    /** The packages named by {@code tool} directives, in the single-line or the block form. */
    private static List<String> tools(String goMod) {
        List<String> tools = new ArrayList<>();
        Matcher single = Pattern.compile("(?m)^tool (\\S+)$").matcher(goMod);
        while (single.find()) {
            tools.add(single.group(1));
        }
        Matcher block = Pattern.compile("(?s)\ntool \\(\n(.*?)\n\\)").matcher(goMod);
        while (block.find()) {
            block.group(1).lines().map(String::strip).filter(line -> !line.isEmpty()).forEach(tools::add);
        }
        return tools;
    }
}
