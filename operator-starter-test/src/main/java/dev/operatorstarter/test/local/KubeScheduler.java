package dev.operatorstarter.test.local;

import java.util.ArrayList;
import java.util.List;

/** kube-scheduler as the local API server runs it with nodes: its command line. */
final class KubeScheduler {

    private KubeScheduler() {
    }

    /**
     * kube-scheduler's flags: the controller manager's administrator credentials (this harness does
     * not split credentials per component), no leader election, and its health endpoint on
     * {@code 127.0.0.1:port} with the run's serving certificate. Its default profile runs, so
     * {@code spec.unschedulable}, node selectors, affinity, taints and resource requests are honoured.
     */
    static List<String> arguments(RunLayout layout, int port) {
        List<String> arguments = new ArrayList<>(layout.componentFlags(port));
        arguments.addAll(List.of("--leader-elect=false", "--profiling=false"));
        return arguments;
    }
}
