package dev.operatorstarter.autoconfigure.wiring;

import static org.assertj.core.api.Assertions.assertThat;

import dev.operatorstarter.workqueue.WorkQueueMetrics;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.config.MeterFilter;
import io.micrometer.core.instrument.distribution.DistributionStatisticConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.prometheus.PrometheusMetricsExportAutoConfiguration;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The duration histograms' buckets in a Spring Boot application: controller-runtime's by
 * default, replaced by Boot's {@code management.metrics.distribution.slo.*} properties, removed by
 * a {@code MeterFilter} bean.
 */
class OperatorMetricsHistogramsTest {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(MetricsAutoConfiguration.class,
                    PrometheusMetricsExportAutoConfiguration.class, OperatorMetricsAutoConfiguration.class));

    @Test
    void theDurationsHaveControllerRuntimesBucketsByDefault() {
        runner.run(context -> {
            String scrape = recordAndScrape(context);
            assertThat(bounds(scrape, "workqueue_queue_duration_seconds")).hasSize(12).startsWith(1e-8).endsWith(1000.0);
            assertThat(bounds(scrape, "workqueue_work_duration_seconds")).hasSize(12).startsWith(1e-8).endsWith(1000.0);
            assertThat(bounds(scrape, "controller_runtime_reconcile_time_seconds")).hasSize(40).startsWith(0.005)
                    .endsWith(60.0);
        });
    }

    @Test
    void bootsSloPropertyReplacesTheBucketsOfTheMetersItNames() {
        runner.withPropertyValues("management.metrics.distribution.slo.workqueue=10ms,1s").run(context -> {
            String scrape = recordAndScrape(context);
            assertThat(bounds(scrape, "workqueue_queue_duration_seconds")).containsExactly(0.01, 1.0);
            assertThat(bounds(scrape, "workqueue_work_duration_seconds")).containsExactly(0.01, 1.0);
            assertThat(bounds(scrape, "controller_runtime_reconcile_time_seconds")).hasSize(40);
        });
    }

    @Test
    void aMeterFilterBeanRemovesTheBuckets() {
        runner.withUserConfiguration(NoOperatorBuckets.class).run(context -> {
            String scrape = recordAndScrape(context);
            assertThat(bounds(scrape, "workqueue_queue_duration_seconds")).isEmpty();
            assertThat(bounds(scrape, "controller_runtime_reconcile_time_seconds")).isEmpty();
            assertThat(scrape).contains("# TYPE controller_runtime_reconcile_time_seconds summary",
                    "controller_runtime_reconcile_time_seconds_count{controller=\"gadgets\"} 1");
        });
    }

    /** Removes the buckets from the runtime's duration histograms, keeping their count, sum and max. */
    @Configuration(proxyBeanMethods = false)
    static class NoOperatorBuckets {

        @Bean
        MeterFilter noOperatorBuckets() {
            return new MeterFilter() {
                @Override
                public DistributionStatisticConfig configure(Meter.Id id, DistributionStatisticConfig config) {
                    if (id.getName().startsWith("workqueue.") || id.getName().startsWith("controller.runtime.")) {
                        return DistributionStatisticConfig.builder().serviceLevelObjectives().build().merge(config);
                    }
                    return config;
                }
            };
        }
    }

    private static String recordAndScrape(AssertableApplicationContext context) {
        assertThat(context).hasNotFailed();
        OperatorMetrics metrics = context.getBean(OperatorMetrics.class);
        WorkQueueMetrics.Recorder queue = metrics.queues().bind("gadgets", new WorkQueueMetrics.QueueStats() {
            @Override
            public int depth() {
                return 0;
            }

            @Override
            public Duration unfinishedWork() {
                return Duration.ZERO;
            }

            @Override
            public Duration longestRunning() {
                return Duration.ZERO;
            }
        });
        queue.taken(1_000);
        queue.finished(2_000_000);
        metrics.controllers().reconciled("gadgets", "success", Duration.ofMillis(30));
        return context.getBean(PrometheusMeterRegistry.class).scrape();
    }

    private static List<Double> bounds(String scrape, String histogram) {
        Matcher le = Pattern.compile("^" + histogram + "_bucket\\{[^}]*le=\"([^\"]+)\"", Pattern.MULTILINE).matcher(scrape);
        List<Double> bounds = new ArrayList<>();
        while (le.find()) {
            if (!le.group(1).equals("+Inf")) {
                bounds.add(Double.parseDouble(le.group(1)));
            }
        }
        return bounds;
    }
}
