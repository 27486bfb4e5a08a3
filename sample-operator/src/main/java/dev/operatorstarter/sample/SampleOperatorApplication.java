package dev.operatorstarter.sample;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.EnableConfigurationProperties;

/**
 * The sample operator: one {@link StaticSiteReconciler} bean; the starter supplies the client,
 * informers, work queue, leader election, health and metrics.
 */
@SpringBootApplication
@EnableConfigurationProperties(SampleProperties.class)
public class SampleOperatorApplication {

    /** The application's name: field manager, {@code managed-by} label, Event reporter. */
    public static final String NAME = "sample-operator";

    public static void main(String[] args) {
        SpringApplication.run(SampleOperatorApplication.class, args);
    }
}
