package ${package};

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.HasMetadata;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * The chart's RBAC rules are generated from the code by the build (chart/templates/_rbac-generated.tpl):
 * they name the group and plural of the ${kind} class and its status, which the chart's Role includes.
 */
class ${kind}ChartTest {

    private static final Path RULES = Path.of("chart/templates/_rbac-generated.tpl");

    @Test
    void theGeneratedRulesLetTheOperatorWatchItsResourceAndWriteItsStatus() throws IOException {
        String rules = Files.readString(RULES);
        String group = HasMetadata.getGroup(${kind}.class);
        String plural = HasMetadata.getPlural(${kind}.class);

        assertThat(rules).contains("apiGroups: [\"" + group + "\"]")
                .contains("resources: [\"" + plural + "\"]")
                .contains("resources: [\"" + plural + "/status\"]");
        assertThat(Files.readString(Path.of("chart/templates/rbac.yaml"))).contains("kind: Role\n")
                .contains(".rules\" $rules) .").contains(".leaderElectionRules\" $rules)");
    }
}
