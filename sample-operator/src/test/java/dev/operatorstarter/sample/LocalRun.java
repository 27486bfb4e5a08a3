package dev.operatorstarter.sample;

import dev.operatorstarter.autoconfigure.local.LocalKubernetes;
import dev.operatorstarter.autoconfigure.local.LocalRunCheck;
import dev.operatorstarter.cache.Lister;
import dev.operatorstarter.controller.Conditions;
import dev.operatorstarter.client.GroupVersionResource;
import dev.operatorstarter.client.KubernetesClient;
import dev.operatorstarter.client.PatchOptions;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import org.springframework.boot.ApplicationRunner;
import org.springframework.boot.SpringApplication;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;

/**
 * The README's first command: the sample operator against a Kubernetes API server that this
 * process starts ({@link LocalKubernetes}: local etcd and kube-apiserver processes, built on first
 * use; K3s when a Docker engine answers), with the chart's CRD installed, then
 * {@code examples/hello-site.yaml} applied as {@code kubectl apply} would, until Ctrl-C; its web
 * servers run on a KWOK node ({@code operator.local.nodes}), so the site becomes Ready. With
 * {@code -Doperator.local.exit-after-reconcile=true} the run ends once it is. Arguments
 * go to the application, for example {@code --server.port=8081}; through Maven ({@code -Plocal-run})
 * set application properties as system properties instead: {@code -Dserver.port=8081}.
 */
public final class LocalRun {

    private LocalRun() {
    }

    public static void main(String[] args) {
        SpringApplication.from(SampleOperatorApplication::main).with(LocalKubernetes.class, HelloSite.class).run(args);
    }

    /**
     * Applies the example site once the operator runs, and says what to look at. A source of its
     * own ({@code with(..)}) and not a {@code @Configuration}: the test applications of this
     * module scan this package, and none of them must apply the example.
     */
    static class HelloSite {

        /** With {@code -Doperator.local.exit-after-reconcile=true}, the run ends once the site is Ready. */
        @Bean
        LocalRunCheck helloSiteReady(Lister<StaticSite> sites) {
            return new LocalRunCheck() {
                @Override
                public String description() {
                    return "StaticSite default/hello to be Ready";
                }

                @Override
                public boolean passed() {
                    return sites.namespace("default").get("hello")
                            .map(site -> site.getStatus() != null
                                    && Conditions.isTrue(site.getStatus().conditions(), StaticSiteStatus.READY))
                            .orElse(false);
                }
            };
        }

        @Bean
        ApplicationRunner helloSite(KubernetesClient client, Environment environment) {
            return arguments -> {
                GenericKubernetesResource hello = Examples.read(Examples.HELLO_SITE, GenericKubernetesResource.class);
                hello.getMetadata().setNamespace("default");
                client.dynamic(new GroupVersionResource(StaticSite.GROUP, StaticSiteV1alpha1.VERSION, "staticsites"))
                        .inNamespace("default").apply(hello, PatchOptions.forceApply("kubectl"));
                String k = "kubectl";
                System.out.println();
                System.out.println("StaticSite default/hello applied. After the export KUBECONFIG=... line above, in "
                        + "another terminal:");
                System.out.println("  " + k + " get staticsites -o wide");
                System.out.println("  " + k + " get configmaps,deployments,services -l app.kubernetes.io/instance=hello");
                System.out.println("  " + k + " get events --field-selector involvedObject.name=hello");
                System.out.println("  " + k + " get configmap static-sites -o yaml   # the site index");
                System.out.println("  " + k + " apply -f sample-operator/examples/hello-site.yaml   # after editing it");
                System.out.println("Its two web servers run on the local cluster's node (KWOK's: no container runs, "
                        + "the Pods become Ready), so the site becomes Ready=True.");
                System.out.println("Metrics: http://localhost:" + environment.getProperty("local.server.port")
                        + "/actuator/prometheus, health: /actuator/health, the operator's state: /actuator/operator. "
                        + "Ctrl-C stops the operator and the API server.");
                System.out.println();
            };
        }
    }
}
