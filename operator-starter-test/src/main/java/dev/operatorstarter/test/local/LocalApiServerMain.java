package dev.operatorstarter.test.local;

import dev.operatorstarter.test.ClusterBackend;
import dev.operatorstarter.test.KubernetesClusters;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;

/**
 * Runs a local API server from the command line until the process is stopped (Ctrl-C, SIGTERM):
 * for trying an operator against a real API server without a cluster.
 *
 * <pre>
 * usage: LocalApiServerMain [--kubeconfig FILE] [--nodes N] | --build-only[=BINARY,...]] [--output FILE]
 *   --kubeconfig FILE   also copy the admin kubeconfig to FILE (owner-only permissions)
 *   --nodes N           make Pods run on N of KWOK's nodes ({@link LocalApiServer#ensureNodes}); default 0
 *   --build-only        only make sure the binaries are in the cache (building what is missing), then exit;
 *                       all three servers, or those named: etcd, kube-apiserver, kube-controller-manager,
 *                       kube-scheduler, kwok (the last two for nodes)
 *   --output FILE       write what it prints and logs to FILE instead of the console
 * </pre>
 *
 * It prints the server URL with the start time, the kubeconfig path and the process ids, one per
 * line, then waits. With {@code --build-only} it prints where each binary is and exits: the
 * README's first command runs it in the background at the start of the Maven build, so that Go
 * compiles while Maven does.
 */
public final class LocalApiServerMain {

    private LocalApiServerMain() {
    }

    public static void main(String[] args) throws IOException, InterruptedException {
        Path copyTo = null;
        int nodes = 0;
        List<Binary> buildOnly = null;
        List<Binary> servers = List.of(Binary.ETCD, Binary.KUBE_APISERVER, Binary.KUBE_CONTROLLER_MANAGER);
        for (int i = 0; i < args.length; i++) {
            if ("--kubeconfig".equals(args[i]) && i + 1 < args.length) {
                copyTo = Path.of(args[++i]);
            } else if ("--nodes".equals(args[i]) && i + 1 < args.length) {
                try {
                    nodes = Integer.parseInt(args[++i]);
                } catch (NumberFormatException e) {
                    usage("--nodes needs a number, was '" + args[i] + "'");
                }
            } else if ("--build-only".equals(args[i])) {
                buildOnly = servers;
            } else if ("--output".equals(args[i]) && i + 1 < args.length) {
                // before the first log line: the console appender writes to whatever System.out is then
                Path output = Path.of(args[++i]);
                Files.createDirectories(output.toAbsolutePath().getParent());
                PrintStream file = new PrintStream(Files.newOutputStream(output), true, StandardCharsets.UTF_8);
                System.setOut(file);
                System.setErr(file);
            } else if (args[i].startsWith("--build-only=")) {
                buildOnly = new ArrayList<>();
                for (String name : args[i].substring("--build-only=".length()).split(",")) {
                    Binary binary = List.of(Binary.ETCD, Binary.KUBE_APISERVER, Binary.KUBE_CONTROLLER_MANAGER,
                            Binary.KUBE_SCHEDULER, Binary.KWOK).stream()
                            .filter(server -> server.fileName().equals(name.strip())).findFirst().orElse(null);
                    if (binary == null) {
                        usage("no server binary named '" + name + "'");
                    }
                    buildOnly.add(binary);
                }
            } else {
                usage("unknown argument '" + args[i] + "'");
            }
        }
        long started = System.nanoTime();
        if (buildOnly != null) {
            LocalApiServerOptions options = LocalApiServerOptions.defaults();
            ClusterBackend backend = KubernetesClusters.selectedBackend();
            if (backend != ClusterBackend.LOCAL || options.binaryDirectory() != null) {
                System.out.println("nothing to build: " + (backend != ClusterBackend.LOCAL
                        ? "the " + backend + " backend is selected" : "the binaries come from " + options.binaryDirectory()));
                return;
            }
            Map<Binary, Path> binaries = new LocalBinaries(options, System.getenv()).prebuild(buildOnly);
            System.out.println("binaries: " + binaries + " (found or built in "
                    + (System.nanoTime() - started) / 1_000_000 + " ms)");
            return;
        }
        LocalApiServer server = LocalApiServer.start(LocalApiServerOptions.defaults());
        long startMillis = (System.nanoTime() - started) / 1_000_000;
        Path kubeconfig = server.connection().kubeconfig();
        if (copyTo != null) {
            kubeconfig = server.connection().copyKubeconfigTo(copyTo);
        }
        System.out.println("server: " + server.connection().server() + " (Kubernetes " + server.serverVersion()
                + ", started in " + startMillis + " ms including finding or building the binaries)");
        System.out.println("kubeconfig: " + kubeconfig);
        if (nodes > 0) {
            System.out.println("nodes: " + server.ensureNodes(nodes));
        }
        System.out.println("pids: " + server.processIds());
        System.out.println("Press Ctrl-C to stop.");
        System.out.flush();
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            server.close();
            stopped.countDown();
        }, "local-apiserver-main-stop"));
        stopped.await();
    }

    private static void usage(String problem) {
        System.err.println(problem + "\nusage: LocalApiServerMain [--kubeconfig FILE] [--nodes N] | "
                + "--build-only[=BINARY,...]] [--output FILE]");
        System.exit(2);
    }
}
