package dev.operatorstarter.test.local;

/** The programs the local API server runs, and where each one is built from. */
enum Binary {

    ETCD("etcd", GoModule.ETCD, "go.etcd.io/etcd/server/v3"),
    KUBE_APISERVER("kube-apiserver", GoModule.KUBERNETES, "k8s.io/kubernetes/cmd/kube-apiserver"),
    KUBE_CONTROLLER_MANAGER("kube-controller-manager", GoModule.KUBERNETES,
            "k8s.io/kubernetes/cmd/kube-controller-manager"),
    /** Schedules Pods onto nodes; only with nodes ({@code LocalNodes}). */
    KUBE_SCHEDULER("kube-scheduler", GoModule.KUBERNETES, "k8s.io/kubernetes/cmd/kube-scheduler"),
    /** KWOK's controller, which plays the nodes' kubelets; only with nodes. */
    KWOK("kwok", GoModule.KWOK, "."),
    SUPERVISOR("supervisor", GoModule.SUPERVISOR, ".");

    private final String fileName;
    private final GoModule module;
    private final String goPackage;

    Binary(String fileName, GoModule module, String goPackage) {
        this.fileName = fileName;
        this.module = module;
        this.goPackage = goPackage;
    }

    /** The executable's file name ({@code .exe} is added on Windows). */
    String fileName() {
        return System.getProperty("os.name", "").startsWith("Windows") ? fileName + ".exe" : fileName;
    }

    GoModule module() {
        return module;
    }

    String goPackage() {
        return goPackage;
    }

    /**
     * The {@code -ldflags} for this binary: stripped symbols, and for Kubernetes the version
     * variables that {@code hack/lib/version.sh} sets in an official build, so {@code /version}
     * reports the real release.
     */
    String ldflags(String buildDate) {
        if (module != GoModule.KUBERNETES) {
            return "-s -w";
        }
        String version = module.upstreamVersion();
        String[] parts = version.substring(1).split("\\.");
        String pkg = "k8s.io/component-base/version";
        return "-s -w"
                + " -X " + pkg + ".gitVersion=" + version
                + " -X " + pkg + ".gitMajor=" + parts[0]
                + " -X " + pkg + ".gitMinor=" + parts[1]
                + " -X " + pkg + ".gitTreeState=clean"
                + " -X " + pkg + ".buildDate=" + buildDate;
    }
}
