package dev.operatorstarter.autoconfigure.widgets;

import dev.operatorstarter.test.ClusterConnection;
import java.util.stream.Stream;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/** The applications of this package, run against the test cluster. */
final class ClusterApplications {

    private ClusterApplications() {
    }

    /**
     * Runs {@code source} against the cluster of {@code connection}, informing on {@code namespace}
     * only, without leader election or a web server, with {@code properties} added.
     */
    static ConfigurableApplicationContext run(Class<?> source, ClusterConnection connection, String namespace,
            String... properties) {
        return new SpringApplicationBuilder(source)
                .properties(Stream.concat(Stream.of("operator.client.kubeconfig=" + connection.kubeconfig(),
                        "operator.informers.namespaces=" + namespace, "operator.leader-election.enabled=false"),
                        Stream.of(properties)).toArray(String[]::new))
                .web(WebApplicationType.NONE).run();
    }
}
