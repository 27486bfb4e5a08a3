package dev.operatorstarter.test.local;

import java.io.IOException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.concurrent.CountDownLatch;

/**
 * Runs a local API server from the command line until the process is stopped (Ctrl-C, SIGTERM):
 * for trying an operator against a real API server without a cluster.
 *
 * <pre>
 * usage: LocalApiServerMain [--kubeconfig FILE | --build-only]
 *   --kubeconfig FILE   also copy the admin kubeconfig to FILE (owner-only permissions)
 *   --build-only        only make sure the binaries are in the cache (building what is missing), then exit
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
        boolean buildOnly = false;
        for (int i = 0; i < args.length; i++) {
            if ("--kubeconfig".equals(args[i]) && i + 1 < args.length) {
                copyTo = Path.of(args[++i]);
            } else if ("--build-only".equals(args[i])) {
                buildOnly = true;
            } else {
                System.err.println("usage: LocalApiServerMain [--kubeconfig FILE | --build-only]");
                System.exit(2);
            }
        }
        long started = System.nanoTime();
        if (buildOnly) {
            LocalBinaries.Resolved binaries = new LocalBinaries(LocalApiServerOptions.defaults(), System.getenv()).resolve();
            System.out.println("binaries: " + binaries.paths() + " (found or built in "
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
}
