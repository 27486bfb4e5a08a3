package dev.operatorstarter.test.local;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/** envtest-shaped binary folders for tests: etcd and kube-apiserver, no kube-controller-manager. */
public final class EnvtestFolders {

    private EnvtestFolders() {
    }

    /**
     * Fills {@code folder} as {@code setup-envtest} would, with links to the binaries this run
     * uses (built or found in the cache), and returns it.
     */
    public static Path fromCache(Path folder) throws IOException {
        LocalBinaries.Resolved binaries = new LocalBinaries(LocalApiServerOptions.defaults(), System.getenv()).resolve();
        for (Binary binary : new Binary[] {Binary.ETCD, Binary.KUBE_APISERVER}) {
            Files.createSymbolicLink(folder.resolve(binary.fileName()), binaries.path(binary));
        }
        return folder;
    }

    /** Options read from an environment whose only setting is {@code KUBEBUILDER_ASSETS=folder}. */
    public static LocalApiServerOptions kubebuilderAssets(Path folder) {
        return LocalApiServerOptions.builder(Map.of(LocalApiServerOptions.KUBEBUILDER_ASSETS_ENV, folder.toString()))
                .build();
    }
}
