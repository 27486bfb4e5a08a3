package ${package};

import dev.operatorstarter.autoconfigure.local.LocalKubernetes;
import org.springframework.boot.SpringApplication;

/**
 * Runs the operator on your machine against a local API server that this process starts, with
 * the CRDs of chart/crds (generated from the classes by the build) installed: {@code mvn spring-boot:test-run}. The log prints how to point
 * kubectl at the server. Ctrl-C stops both.
 */
public class Local${kind}Operator {

    public static void main(String[] args) {
        SpringApplication.from(${kind}Operator::main).with(LocalKubernetes.class).run(args);
    }
}
