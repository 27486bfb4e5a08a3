package dev.operatorstarter.test.helm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/** A chart linted and rendered by Helm in this JVM, and read back by kind, name and permission. */
class HelmChartTest {

    private static final Path CHARTS = Path.of("src/test/resources/charts");
    private final HelmChart demo = HelmChart.at(CHARTS.resolve("demo"));

    @Test
    void aFolderWithoutChartYamlIsNotAChart(@TempDir Path folder) {
        assertThatThrownBy(() -> HelmChart.at(folder)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("no Chart.yaml in " + folder.toAbsolutePath());
    }

    @Test
    void aSoundChartLintsWithoutFindingsAndABrokenOneWithHelmsMessages() {
        assertThat(demo.lint()).isEmpty();
        assertThat(HelmChart.at(CHARTS.resolve("broken")).lint()).isNotEmpty()
                .anyMatch(message -> message.contains("[ERROR]") && message.contains("configmap.yaml"));
    }

    @Test
    void renderingSetsTheReleaseTheNamespaceAndTheValuesAndLeavesEmptyTemplatesOut() {
        RenderedChart off = demo.render("shop", "team-a", Map.of());
        assertThat(off.documents()).extracting(document -> document.path("kind").asString()).containsExactly("Role");

        RenderedChart on = demo.render("shop", "team-a", Map.of("configMap.enabled", true, "configMap.colour", "red"));
        JsonNode settings = on.one("ConfigMap", "shop-settings");
        assertThat(settings.at("/data/colour").asString()).isEqualTo("red");
        assertThat(on.one("Role").at("/metadata/namespace").asString()).isEqualTo("team-a");
        assertThat(on.text()).contains("name: shop-settings");
    }

    @Test
    void aRoleReadsAsOnePermissionPerGroupResourceAndVerbWithItsNamesSorted() {
        JsonNode role = demo.render("shop", "team-a", Map.of("group", "shop.example.com")).one("Role");

        assertThat(RenderedChart.permissions(role)).containsExactly("coordination.k8s.io/leases:update@shop-leader",
                "shop.example.com/widgets/status:get", "shop.example.com/widgets/status:watch",
                "shop.example.com/widgets:get", "shop.example.com/widgets:watch");
    }

    @Test
    void aRoleAllowsWhatARuleNamesAndANamedRuleOnlyItsObjects() {
        JsonNode role = demo.render("shop", "team-a", Map.of()).one("Role");

        assertThat(RenderedChart.allows(role, "demo.example.com/widgets:watch")).isTrue();
        assertThat(RenderedChart.allows(role, "demo.example.com/widgets:get@any")).as("no names: every object").isTrue();
        assertThat(RenderedChart.allows(role, "demo.example.com/widgets:patch")).isFalse();
        assertThat(RenderedChart.allows(role, "other.example.com/widgets:get")).isFalse();
        assertThat(RenderedChart.allows(role, "coordination.k8s.io/leases:update@shop-leader")).isTrue();
        assertThat(RenderedChart.allows(role, "coordination.k8s.io/leases:update@other")).isFalse();
        assertThat(RenderedChart.allows(role, "coordination.k8s.io/leases:update")).as("every Lease").isFalse();
        assertThatThrownBy(() -> RenderedChart.allows(role, "widgets")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aWildcardRuleAllowsEveryGroupResourceOrVerb() {
        JsonNode role = RenderedChart.parse("""
                kind: ClusterRole
                rules:
                  - apiGroups: ["*"]
                    resources: ["configmaps"]
                    verbs: ["*"]
                """).one("ClusterRole");

        assertThat(RenderedChart.allows(role, "/configmaps:delete")).isTrue();
        assertThat(RenderedChart.allows(role, "apps/configmaps:get@any")).isTrue();
        assertThat(RenderedChart.allows(role, "/secrets:get")).isFalse();
    }

    @Test
    void aTemplateThatFailsFailsTheRenderWithItsMessage() {
        assertThatThrownBy(() -> demo.render("shop", "team-a", Map.of("configMap.enabled", true,
                "configMap.colour", "invisible"))).hasMessageContaining("configMap.colour cannot be invisible");
    }

    @Test
    void findingOneOfAKindOrNameThatIsNotThereNamesWhatIs() {
        RenderedChart rendered = demo.render("shop", "team-a", Map.of());

        assertThatThrownBy(() -> rendered.one("Deployment")).isInstanceOf(AssertionError.class)
                .hasMessage("expected one Deployment, the chart rendered 0");
        assertThatThrownBy(() -> rendered.one("Role", "other")).isInstanceOf(AssertionError.class)
                .hasMessageContaining("its Role objects are [shop]");
    }
}
