package dev.operatorstarter.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;

import dev.operatorstarter.benchmarks.StartupLog.Mark;
import dev.operatorstarter.benchmarks.StartupLog.Milestone;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class StartupLogTest {

    private static final String SITE = "startup-3/site";

    @Test
    void springBootsStartedLineIsTheStartedMilestoneAtTheLinesOwnTime() {
        String line = "2026-11-25T00:58:58.074Z  INFO 26908 --- [sample-operator] [           main] "
                + "d.o.sample.SampleOperatorApplication     : Started SampleOperatorApplication in 13.002 seconds "
                + "(process running for 15.578)";

        assertThat(StartupLog.read(line, SITE))
                .contains(new Mark(Milestone.STARTED, Instant.parse("2026-11-25T00:58:58.074Z")));
    }

    @Test
    void theSitesStatusLineIsTheFirstReconcileAndAnOffsetIsHonoured() {
        String line = "2026-11-25T01:58:59.923+01:00  INFO 26908 --- [sample-operator] [icsite-worker-0] "
                + "d.o.sample.StaticSiteReconciler          : startup-3/site generation 1: 0 of 1 web servers available, "
                + "Ready=false";

        assertThat(StartupLog.read(line, SITE))
                .contains(new Mark(Milestone.FIRST_RECONCILE, Instant.parse("2026-11-25T00:58:59.923Z")));
    }

    @ParameterizedTest
    @ValueSource(strings = {
        // another site, or a later generation of this one
        "2026-11-25T00:58:59.923Z  INFO 1 --- [x] [w] d.o.sample.StaticSiteReconciler : startup-13/site generation 1: 0 of 1",
        "2026-11-25T00:58:59.923Z  INFO 1 --- [x] [w] d.o.sample.StaticSiteReconciler : startup-3/site generation 2: 0 of 1",
        // the runtime's own lines, the banner, JVM warnings, a stack trace
        "2026-11-25T00:58:58.475Z  INFO 1 --- [x] [operator-leader] d.operatorstarter.controller.Controller  : staticsite: started with 1 workers",
        " :: Spring Boot ::                (v4.1.0)",
        "[10.385s][warning][cds] Skipping io/netty/handler/ssl/OpenSslContext: Failed verification",
        "\tat dev.operatorstarter.sample.StaticSiteReconciler.reconcile(StaticSiteReconciler.java:80)",
        "Started SampleOperatorApplication in 1.0 seconds",
        ""})
    void otherLinesAreNoMilestone(String line) {
        assertThat(StartupLog.read(line, SITE)).isEmpty();
    }
}
