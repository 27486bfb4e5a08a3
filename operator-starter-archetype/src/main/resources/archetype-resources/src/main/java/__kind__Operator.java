package ${package};

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * The operator application: the starter gives every {@code @Reconciler} bean informers, a work
 * queue and workers, and starts them once this replica holds the leader lease.
 */
@SpringBootApplication
public class ${kind}Operator {

    public static void main(String[] args) {
        SpringApplication.run(${kind}Operator.class, args);
    }
}
