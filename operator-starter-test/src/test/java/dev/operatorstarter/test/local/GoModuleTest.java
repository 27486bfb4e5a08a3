package dev.operatorstarter.test.local;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
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

        Matcher replaces = Pattern.compile("(?m)^\\s*(k8s\\.io/[\\w.-]+) => (k8s\\.io/[\\w.-]+) (v\\S+)$").matcher(goMod);
        int count = 0;
        while (replaces.find()) {
            count++;
            assertThat(replaces.group(2)).isEqualTo(replaces.group(1));
            assertThat(replaces.group(3)).as(replaces.group(1)).isEqualTo(staging);
        }
        assertThat(count).as("replace directives for the staging modules").isGreaterThan(20);
    }

    @Test
    void theWrapperModulesDeclareTheBinariesAsTools() throws IOException {
        for (GoModule module : List.of(GoModule.KUBERNETES, GoModule.ETCD)) {
            Path dir = temp.resolve(module.directory());
            module.extractTo(dir);
            String goMod = Files.readString(dir.resolve("go.mod"));
            for (Binary binary : Binary.values()) {
                if (binary.module() == module) {
                    assertThat(goMod).contains(binary.goPackage());
                }
            }
            assertThat(dir.resolve("go.sum")).isNotEmptyFile();
        }
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
    void theFingerprintChangesOnlyWithTheModules() {
        assertThat(GoModule.fingerprint()).hasSize(12).isEqualTo(GoModule.fingerprint());
    }
}
