package ${package};

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.HasMetadata;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * The chart's Role lets the operator do what its code declares: the group and plural come from
 * the ${kind} class, so a change in the code that the chart missed fails here rather than in a
 * cluster, after the cache-sync timeout.
 */
class ${kind}ChartTest {

    private static final Path RBAC = Path.of("chart/templates/rbac.yaml");

    @Test
    void theChartsRoleLetsTheOperatorWatchItsResourceWriteItsStatusAndHoldItsLease() throws IOException {
        String rbac = Files.readString(RBAC);
        String group = HasMetadata.getGroup(${kind}.class);
        String plural = HasMetadata.getPlural(${kind}.class);

        assertThat(rbac).contains("kind: Role\n").doesNotContain("ClusterRole")
                .contains("apiGroups: [\"" + group + "\"]")
                .contains("resources: [\"" + plural + "\"]")
                .contains("resources: [\"" + plural + "/status\"]")
                .contains("resourceNames: [\"${artifactId}-leader\"]");
    }
}
