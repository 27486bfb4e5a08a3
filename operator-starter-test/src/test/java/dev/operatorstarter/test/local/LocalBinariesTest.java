package dev.operatorstarter.test.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.operatorstarter.test.ClusterStartException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LocalBinariesTest {

    @TempDir
    Path temp;

    @Test
    void withoutGoAndWithoutBinariesTheErrorSaysWhatToInstallOrSet() {
        LocalApiServerOptions options = LocalApiServerOptions.builder(Map.of())
                .cacheDirectory(temp.resolve("cache")).build();
        Map<String, String> noGo = Map.of("PATH", temp.resolve("empty-bin").toString());

        // /usr/local/go/bin is searched too: this test is meaningful only where Go is not there.
        org.junit.jupiter.api.Assumptions.assumeFalse(Files.exists(Path.of("/usr/local/go/bin/go")),
                "Go is installed in /usr/local/go, which is always searched");
        assertThatThrownBy(() -> new LocalBinaries(options, noGo).resolve())
                .isInstanceOf(ClusterStartException.class)
                .hasMessageContaining("no 'go' command was found")
                .hasMessageContaining("install Go 1.26 or newer")
                .hasMessageContaining("OPERATOR_TEST_BINARY_DIR")
                .hasMessageContaining(LocalApiServer.kubernetesVersion());
    }

    @Test
    void theMissingGoMessageNamesEveryWayOut() {
        assertThat(LocalBinaries.missingGoMessage(temp))
                .contains("no 'go' command was found on the PATH, in $GOROOT/bin or in /usr/local/go/bin")
                .contains("https://go.dev/doc/install")
                .contains(LocalApiServerOptions.BINARY_DIR_ENV)
                .contains(LocalApiServerOptions.BINARY_DIR_PROPERTY)
                .contains(LocalApiServerOptions.KUBEBUILDER_ASSETS_ENV)
                .contains("OPERATOR_TEST_CLUSTER=k3s")
                .contains(temp.toString());
    }

    @Test
    void theMissingGoMessageForNodesNamesTheirBinariesAndHowToDoWithout() {
        assertThat(LocalBinaries.missingGoForNodesMessage(temp))
                .contains("kube-scheduler " + LocalApiServer.kubernetesVersion())
                .contains("kwok " + GoModule.KWOK.upstreamVersion())
                .contains("no 'go' command was found")
                .contains(LocalApiServerOptions.BINARY_DIR_ENV)
                .contains("operator.local.nodes=0")
                .contains(temp.toString());
    }

    @Test
    void goIsFoundOnThePathAndInGoroot() throws IOException {
        Path bin = Files.createDirectories(temp.resolve("goroot/bin"));
        Path go = Files.writeString(bin.resolve("go"), "#!/bin/sh\n");
        Files.setPosixFilePermissions(go, PosixFilePermissions.fromString("rwxr-xr-x"));

        assertThat(GoToolchain.locate(Map.of("PATH", bin.toString()))).contains(go);
        assertThat(GoToolchain.locate(Map.of("PATH", temp.toString(), "GOROOT", temp.resolve("goroot").toString())))
                .contains(go);
    }

    @Test
    void aBinaryFolderWithoutOneOfTheServersIsRejectedByName() throws IOException {
        Path folder = folderWith("etcd");
        LocalApiServerOptions options = LocalApiServerOptions.builder(Map.of()).binaryDirectory(folder)
                .cacheDirectory(temp.resolve("cache")).build();

        assertThatThrownBy(() -> new LocalBinaries(options, Map.of()).resolve())
                .isInstanceOf(ClusterStartException.class)
                .hasMessageContaining(folder.toString())
                .hasMessageContaining("has no executable kube-apiserver")
                .hasMessageContaining(LocalApiServerOptions.KUBEBUILDER_ASSETS_ENV);
    }

    @Test
    void aBinaryFolderWithoutTheControllerManagerIsUsedWithoutIt() throws IOException {
        Path folder = folderWith("etcd", "kube-apiserver", "supervisor");
        LocalApiServerOptions options = LocalApiServerOptions.builder(Map.of()).binaryDirectory(folder)
                .cacheDirectory(temp.resolve("cache")).build();

        LocalBinaries.Resolved resolved = new LocalBinaries(options, Map.of()).resolve();

        assertThat(resolved.path(Binary.KUBE_APISERVER)).isEqualTo(folder.resolve("kube-apiserver"));
        assertThat(resolved.controllerManager()).isEmpty();
        assertThat(resolved.supervisor()).contains(folder.resolve("supervisor"));
    }

    @Test
    void kubebuilderAssetsIsTheBinaryFolderWhenNeitherOfOursIsSet() {
        org.junit.jupiter.api.Assumptions.assumeTrue(System.getProperty(LocalApiServerOptions.BINARY_DIR_PROPERTY) == null);

        assertThat(LocalApiServerOptions.builder(Map.of(LocalApiServerOptions.KUBEBUILDER_ASSETS_ENV,
                "/home/me/.local/share/kubebuilder-envtest/k8s/1.34.1-linux-amd64")).build().binaryDirectory())
                .isEqualTo(Path.of("/home/me/.local/share/kubebuilder-envtest/k8s/1.34.1-linux-amd64"));
        assertThat(LocalApiServerOptions.builder(Map.of(LocalApiServerOptions.KUBEBUILDER_ASSETS_ENV, "/envtest",
                LocalApiServerOptions.BINARY_DIR_ENV, "/opt/k8s/bin")).build().binaryDirectory())
                .as("our own setting wins").isEqualTo(Path.of("/opt/k8s/bin"));
        assertThat(LocalApiServerOptions.builder(Map.of(LocalApiServerOptions.KUBEBUILDER_ASSETS_ENV, " ")).build()
                .binaryDirectory()).as("a blank variable is unset").isNull();
    }

    private Path folderWith(String... names) throws IOException {
        Path folder = Files.createDirectories(temp.resolve("bin"));
        for (String name : names) {
            Path file = Files.writeString(folder.resolve(name), "#!/bin/sh\n");
            Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-xr-x"));
        }
        return folder;
    }

    @Test
    void theBinaryFolderComesFromTheEnvironmentWhenNoPropertyIsSet() {
        LocalApiServerOptions options = LocalApiServerOptions.builder(
                Map.of(LocalApiServerOptions.BINARY_DIR_ENV, "/opt/k8s/bin", "XDG_CACHE_HOME", "/var/cache/me")).build();

        assertThat(options.binaryDirectory()).isEqualTo(Path.of("/opt/k8s/bin"));
        if (System.getProperty("os.name").toLowerCase().contains("linux")
                && System.getProperty(LocalApiServerOptions.CACHE_DIR_PROPERTY) == null) {
            assertThat(options.cacheDirectory()).isEqualTo(Path.of("/var/cache/me/operator-starter/binaries"));
        }
    }

    @Test
    void optionsRejectANonPositiveTimeoutByName() {
        assertThatThrownBy(() -> LocalApiServerOptions.builder(Map.of()).startTimeout(java.time.Duration.ZERO).build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("startTimeout");
    }

    @Test
    void eachBinarysCacheKeyNamesItsVersionAndThePlatform() {
        assertThat(LocalBinaries.cacheKey(Binary.ETCD))
                .startsWith("etcd-" + LocalApiServer.etcdVersion() + "_" + LocalBinaries.platform() + "_");
        assertThat(LocalBinaries.cacheKey(Binary.KUBE_APISERVER))
                .startsWith("kube-apiserver-" + LocalApiServer.kubernetesVersion() + "_" + LocalBinaries.platform() + "_");
        assertThat(LocalBinaries.cacheKey(Binary.KUBE_CONTROLLER_MANAGER))
                .startsWith("kube-controller-manager-" + LocalApiServer.kubernetesVersion() + "_");
        assertThat(LocalBinaries.cacheKey(Binary.KUBE_APISERVER)).as("a recipe of its own")
                .isNotEqualTo(LocalBinaries.cacheKey(Binary.KUBE_CONTROLLER_MANAGER).replace("kube-controller-manager",
                        "kube-apiserver"));
    }
}
