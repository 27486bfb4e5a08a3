package dev.operatorstarter.crd.generator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.operatorstarter.crd.generator.shapes.ClusterScoped;
import dev.operatorstarter.crd.generator.shapes.StaticSite;
import dev.operatorstarter.crd.generator.shapes.Widgets;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The options around the CRD, and the YAML's form; the schemas themselves are in the golden files. */
class CrdGeneratorTest {

    @Test
    void theOptionsAnnotationsAndLabelsAreWrittenSortedByKey() {
        CrdGenerator generator = CrdGenerator.create(CrdOptions.builder().annotation("z.example.com/last", "1")
                .annotation("a.example.com/first", "2").label("tier", "crd").label("app", "shapes").build());

        CustomResourceDefinition crd = generator.generate(ClusterScoped.class);

        assertThat(crd.getMetadata().getName()).isEqualTo("fleetz.shapes.operatorstarter.dev");
        assertThat(crd.getMetadata().getAnnotations()).containsExactly(Map.entry("a.example.com/first", "2"),
                Map.entry("z.example.com/last", "1"));
        assertThat(generator.toYaml(crd)).contains("""
                metadata:
                  annotations:
                    a.example.com/first: "2"
                    z.example.com/last: "1"
                  labels:
                    app: shapes
                    tier: crd
                  name: fleetz.shapes.operatorstarter.dev
                """);
    }

    @Test
    void theHeaderBecomesCommentLinesAboveTheDocument() {
        CrdGenerator generator = CrdGenerator.create(CrdOptions.builder()
                .header("Generated from dev.example.Widget.\n\nDo not edit.").build());

        String yaml = generator.toYaml(generator.generate(StaticSite.class));

        assertThat(yaml).startsWith("""
                # Generated from dev.example.Widget.
                #
                # Do not edit.
                apiVersion: apiextensions.k8s.io/v1
                kind: CustomResourceDefinition
                """).endsWith("status: {}\n");
    }

    @Test
    void withoutAHeaderTheDocumentStartsAtOnceAndNothingIsAddedToTheMetadata() {
        CrdGenerator generator = CrdGenerator.create(CrdOptions.defaults());

        String yaml = generator.toYaml(generator.generate(StaticSite.class));

        assertThat(yaml).startsWith("apiVersion: apiextensions.k8s.io/v1\n")
                .contains("metadata:\n  name: staticsites.sample.operatorstarter.dev\n");
    }

    @Test
    void theSameClassesGiveTheSameBytesFromTwoGenerators() {
        String first = CrdGenerator.create(CrdOptions.defaults()).toYaml(
                CrdGenerator.create(CrdOptions.defaults()).generate(StaticSite.class));
        String second = CrdGenerator.create(CrdOptions.defaults()).toYaml(
                CrdGenerator.create(CrdOptions.defaults()).generate(StaticSite.class));

        assertThat(second).isEqualTo(first);
    }

    @Test
    void optionsRefuseEmptyKeysAndNullValuesNamingTheField() {
        Map<String, String> nullValue = new HashMap<>();
        nullValue.put("key", null);

        assertThatThrownBy(() -> new CrdOptions(nullValue, Map.of(), "", null))
                .isInstanceOf(IllegalArgumentException.class).hasMessageStartingWith("annotations ");
        assertThatThrownBy(() -> CrdOptions.builder().label("", "x").build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageStartingWith("labels ");
    }

    @Test
    void aConversionWebhookServiceMakesTheConversionStrategyWebhookWithReviewVersionV1() {
        CrdGenerator generator = CrdGenerator.create(CrdOptions.builder()
                .conversionWebhook(ConversionWebhook.service("operators", "sites-webhook", "/convert")).build());

        String yaml = generator.toYaml(generator.generate(List.of(Widgets.V1.class, Widgets.V1beta1.class)));

        assertThat(yaml).contains("""
                spec:
                  conversion:
                    strategy: Webhook
                    webhook:
                      clientConfig:
                        service:
                          name: sites-webhook
                          namespace: operators
                          path: /convert
                          port: 443
                      conversionReviewVersions:
                        - v1
                  group: shapes.operatorstarter.dev
                """);
        assertThat(CrdGenerator.create(CrdOptions.builder()
                .conversionWebhook(ConversionWebhook.url("https://127.0.0.1:9443/convert")).build())
                .generate(Widgets.V1.class).getSpec().getConversion().getWebhook().getClientConfig().getUrl())
                .isEqualTo("https://127.0.0.1:9443/convert");
    }

    @Test
    void aConversionWebhookIsAUrlOrAServiceAndSaysWhatIsWrong() {
        assertThatThrownBy(() -> new ConversionWebhook(null, null, null, null, 443))
                .hasMessage("a conversion webhook has either a url or a service, not neither");
        assertThatThrownBy(() -> new ConversionWebhook("https://a", "ns", "name", "/p", 443))
                .hasMessage("a conversion webhook has either a url or a service, not both");
        assertThatThrownBy(() -> ConversionWebhook.url("http://127.0.0.1/convert"))
                .hasMessageContaining("must start with https://");
        assertThatThrownBy(() -> ConversionWebhook.service("ns", "name", "convert"))
                .hasMessageContaining("path must start with /");
        assertThatThrownBy(() -> new ConversionWebhook(null, "ns", "name", "/p", 0))
                .hasMessageContaining("port must be 1 to 65535");
    }

    @Test
    void theDefaultOptionsAddNothing() {
        assertThat(CrdOptions.defaults()).isEqualTo(new CrdOptions(Map.of(), Map.of(), "", null));
    }
}
