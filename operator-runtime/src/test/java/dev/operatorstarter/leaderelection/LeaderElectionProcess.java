package dev.operatorstarter.leaderelection;

import dev.operatorstarter.client.KubernetesClient;
import dev.operatorstarter.client.config.KubeconfigLoader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;

/**
 * One candidate in its own JVM, for {@link LeaderElectionIT}: campaigns on a Lease and, while
 * leading, "acts" every 10 ms, writing the wall-clock time of each moment it acted (after
 * checking {@link Leadership#isValid()}) to its file. SIGTERM closes the elector (releasing the
 * lease); the test kills, pauses and resumes these processes.
 *
 * <p>Arguments: kubeconfig namespace lease identity output-file lease-ms renew-ms retry-ms
 */
public final class LeaderElectionProcess {

    private LeaderElectionProcess() {
    }

    public static void main(String[] args) throws Exception {
        Path kubeconfig = Path.of(args[0]);
        String namespace = args[1];
        String lease = args[2];
        String identity = args[3];
        Path output = Path.of(args[4]);
        KubernetesClient client = KubernetesClient.create(KubeconfigLoader.load(kubeconfig, null));
        LeaderElector elector = new LeaderElector(LeaderElectionConfig.builder(
                LeaseLock.of(client, namespace, lease, identity), new LeaderCallbacks() {
                    @Override
                    public void onStartedLeading(Leadership leadership) {
                        try {
                            while (true) {
                                // The action: take the time, then check the term, then record that
                                // moment as one at which this process acted as leader. A pause
                                // anywhere in between cannot record a moment it was not leader.
                                long moment = System.currentTimeMillis();
                                if (leadership.isValid()) {
                                    Files.writeString(output, moment + "\n", StandardOpenOption.APPEND,
                                            StandardOpenOption.CREATE);
                                } else if (leadership.awaitEnd(Duration.ZERO)) {
                                    return;
                                }
                                Thread.sleep(10);
                            }
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                        } catch (IOException e) {
                            throw new IllegalStateException(e);
                        }
                    }
                })
                .leaseDuration(Duration.ofMillis(Long.parseLong(args[5])))
                .renewDeadline(Duration.ofMillis(Long.parseLong(args[6])))
                .retryPeriod(Duration.ofMillis(Long.parseLong(args[7])))
                .build());
        CountDownLatch closed = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            elector.close();
            client.close();
            closed.countDown();
        }));
        elector.start();
        System.out.println("started " + identity);
        closed.await();
    }
}
