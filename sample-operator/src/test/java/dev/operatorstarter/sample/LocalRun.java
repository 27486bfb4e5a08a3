package dev.operatorstarter.sample;

import dev.operatorstarter.client.GroupVersionResource;
import dev.operatorstarter.client.KubernetesClient;
import dev.operatorstarter.client.PatchOptions;
import dev.operatorstarter.client.config.KubeconfigLoader;
import dev.operatorstarter.test.KubernetesCluster;
import dev.operatorstarter.test.KubernetesClusters;
import dev.operatorstarter.test.internal.OwnerOnly;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.springframework.boot.SpringApplication;

/**
 * The README's first command: runs the sample operator against an API server that this process
 * starts (local etcd and kube-apiserver processes, built on first use; K3s when a Docker engine
 * answers), with the CRD and {@code examples/hello-site.yaml} installed, until Ctrl-C.
 *
 * <pre>
 * usage: LocalRun [--kubeconfig FILE] [Spring Boot arguments...]
 *   --kubeconfig FILE   where to write the admin kubeconfig for kubectl (owner-only permissions)
 * </pre>
 *
 * Other arguments go to the application, for example {@code --server.port=8081}. Through Maven
 * ({@code -Plocal-run}), set application properties as system properties instead:
 * {@code -Dserver.port=8081}.
 */
public final class LocalRun {

    private LocalRun() {
    }

    public static void main(String[] args) throws Exception {
        Path kubeconfig = Path.of("target", "local-apiserver", "kubeconfig");
        List<String> applicationArgs = new ArrayList<>();
        for (int i = 0; i < args.length; i++) {
            if ("--kubeconfig".equals(args[i]) && i + 1 < args.length) {
                kubeconfig = Path.of(args[++i]);
            } else {
                applicationArgs.add(args[i]);
            }
        }

        // The JVM's shared test cluster: stopped by a shutdown hook when this process ends.
        KubernetesCluster cluster = KubernetesClusters.shared();
        Files.createDirectories(kubeconfig.toAbsolutePath().getParent());
        OwnerOnly.write(kubeconfig, Files.readString(cluster.connection().kubeconfig()));
        KubernetesClusters.installCrds(Examples.CRD, LocalRun.class.getClassLoader());
        try (KubernetesClient admin = KubernetesClient.create(KubeconfigLoader.load(kubeconfig, null))) {
            // as kubectl apply would: the YAML as it is, through the dynamic client
            GenericKubernetesResource hello = Examples.read(Examples.HELLO_SITE, GenericKubernetesResource.class);
            hello.getMetadata().setNamespace("default");
            admin.dynamic(new GroupVersionResource(StaticSite.GROUP, StaticSite.VERSION, "staticsites"))
                    .inNamespace("default").apply(hello, PatchOptions.forceApply("kubectl"));
        }

        String k = "kubectl";
        System.out.println();
        System.out.println("API server " + cluster.connection().server() + " (Kubernetes " + cluster.serverVersion()
                + ", " + cluster.backend() + " backend). CRD and StaticSite default/hello installed.");
        System.out.println("Point kubectl at it, in another terminal:");
        System.out.println("  export KUBECONFIG=" + kubeconfig.toAbsolutePath());
        System.out.println("  " + k + " get staticsites -o wide");
        System.out.println("  " + k + " get configmaps,deployments,services -l app.kubernetes.io/instance=hello");
        System.out.println("  " + k + " get events --field-selector involvedObject.name=hello");
        System.out.println("  " + k + " get configmap static-sites -o yaml   # the site index");
        System.out.println("  " + k + " apply -f sample-operator/examples/hello-site.yaml   # after editing it");
        System.out.println("The local backend runs no scheduler or kubelet: the web servers never start, so the site");
        System.out.println("stays Ready=False, Progressing=True.");
        System.out.println("Starting the operator; Ctrl-C stops it and the API server.");
        System.out.println();
        System.out.flush();

        List<String> all = new ArrayList<>(List.of("--operator.client.kubeconfig=" + kubeconfig.toAbsolutePath()));
        all.addAll(applicationArgs);
        var application = SpringApplication.run(SampleOperatorApplication.class, all.toArray(String[]::new));
        System.out.println("Metrics: http://localhost:" + application.getEnvironment().getProperty("local.server.port")
                + "/actuator/prometheus, health: /actuator/health, the operator's state: /actuator/operator");
    }
}
