package dev.operatorstarter.crd.generator;

import dev.operatorstarter.client.KubernetesJson;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import java.util.ArrayList;
import java.util.List;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;
import tools.jackson.dataformat.yaml.YAMLMapper;
import tools.jackson.dataformat.yaml.YAMLWriteFeature;

/**
 * Writes a CRD as YAML the same way every time, so that a generated file can be compared byte
 * for byte: fields in the order of the model's {@code @JsonPropertyOrder} (which is Kubernetes'
 * alphabetical order), maps in the order generated, integral numbers without a fraction
 * ({@code minimum: 0}, not {@code 0.0}), strings quoted only where YAML would misread them
 * ({@code "True"}, {@code "1"}), no line folding, multi-line strings as literal blocks, list items
 * indented under their key, one trailing newline.
 */
final class CrdYaml {

    private static final YAMLMapper YAML = YAMLMapper.builder()
            .disable(YAMLWriteFeature.WRITE_DOC_START_MARKER)
            .disable(YAMLWriteFeature.SPLIT_LINES)
            .enable(YAMLWriteFeature.MINIMIZE_QUOTES)
            .enable(YAMLWriteFeature.ALWAYS_QUOTE_NUMBERS_AS_STRINGS)
            .enable(YAMLWriteFeature.LITERAL_BLOCK_STYLE)
            .enable(YAMLWriteFeature.INDENT_ARRAYS_WITH_INDICATOR)
            .build();

    private CrdYaml() {
    }

    static String write(CustomResourceDefinition crd, String header) {
        JsonNode tree = withIntegralNumbers(KubernetesJson.mapper().valueToTree(crd));
        StringBuilder yaml = new StringBuilder();
        if (!header.isEmpty()) {
            header.lines().forEach(line -> yaml.append(line.isEmpty() ? "#" : "# " + line).append('\n'));
        }
        yaml.append(YAML.writeValueAsString(tree).stripTrailing()).append('\n');
        return yaml.toString();
    }

    /** The model keeps bounds as doubles; Kubernetes writes {@code maximum: 10}, and so do we. */
    private static JsonNode withIntegralNumbers(JsonNode node) {
        if (node instanceof ObjectNode object) {
            List<String> names = new ArrayList<>(object.propertyNames());
            for (String name : names) {
                object.set(name, withIntegralNumbers(object.get(name)));
            }
        } else if (node instanceof ArrayNode array) {
            for (int i = 0; i < array.size(); i++) {
                array.set(i, withIntegralNumbers(array.get(i)));
            }
        } else if (node.isFloatingPointNumber() && Double.isFinite(node.doubleValue())
                && node.decimalValue().stripTrailingZeros().scale() <= 0
                && Math.abs(node.doubleValue()) < 0x1p53) {
            return JsonNodeFactory.instance.numberNode(node.longValue());
        }
        return node;
    }
}
