package dev.operatorstarter.crd.generator;

import static org.assertj.core.api.Assertions.assertThat;

import dev.operatorstarter.crd.generator.shapes.StaticSite;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;
import tools.jackson.dataformat.yaml.YAMLMapper;

/**
 * The generator can express everything in the sample chart's hand-written StaticSite CRD: from
 * classes of the same shape ({@link StaticSite}) it generates a CRD whose spec is the same, and
 * whose metadata differs only by the annotations the options add.
 */
class StaticSiteCrdTest {

    private static final YAMLMapper YAML = YAMLMapper.builder().build();

    private final CrdGenerator generator = CrdGenerator.create(CrdOptions.builder()
            .annotation("helm.sh/resource-policy", "keep").build());

    @Test
    void theGeneratedCrdMeansWhatTheChartsHandWrittenOneMeans() throws IOException {
        JsonNode handWritten = YAML.readTree(Files.readString(Path.of(System.getProperty("static-site.crd",
                "../helm/sample-operator/files/crds/staticsites.sample.operatorstarter.dev.yaml"))));
        JsonNode generated = YAML.readTree(generator.toYaml(generator.generate(StaticSite.class)));

        assertThat(withSortedRequiredLists(generated)).isEqualTo(withSortedRequiredLists(handWritten));
    }

    /** {@code required} is a set: the hand-written file lists it in declaration order, we by name. */
    private static JsonNode withSortedRequiredLists(JsonNode node) {
        if (node instanceof ObjectNode object) {
            for (String name : new ArrayList<>(object.propertyNames())) {
                JsonNode value = object.get(name);
                if (name.equals("required") && value instanceof ArrayNode required) {
                    List<String> names = new ArrayList<>();
                    required.forEach(item -> names.add(item.asString()));
                    names.sort(null);
                    ArrayNode sorted = object.putArray(name);
                    names.forEach(sorted::add);
                } else {
                    withSortedRequiredLists(value);
                }
            }
        } else if (node instanceof ArrayNode array) {
            array.forEach(StaticSiteCrdTest::withSortedRequiredLists);
        }
        return node;
    }
}
