package dev.operatorstarter.webhook;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.apiextensions.v1.ConversionReview;
import io.fabric8.kubernetes.api.model.apiextensions.v1.ConversionReviewBuilder;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

class ConversionEndpointTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final String FINISH = "webhooks.operatorstarter.dev/finish";

    /** v1alpha1 has no finish: it is kept in an annotation, so converting there and back loses nothing. */
    static final Converter<GadgetV1alpha1, GadgetV1> ALPHA_TO_V1 = new Converter<>() {
        @Override
        public GadgetV1 convert(GadgetV1alpha1 source) {
            GadgetV1 target = new GadgetV1();
            target.setMetadata(source.getMetadata());
            String finish = source.getMetadata().getAnnotations().remove(FINISH);
            target.setSpec(new GadgetV1.Spec(new GadgetV1.Paint(source.getSpec().colour(),
                    finish == null ? "matte" : finish), List.of()));
            return target;
        }

        @Override
        public GadgetV1alpha1 convertBack(GadgetV1 source) {
            GadgetV1alpha1 target = new GadgetV1alpha1();
            target.setMetadata(source.getMetadata());
            target.getMetadata().getAnnotations().put(FINISH, source.getSpec().paint().finish());
            target.setSpec(new GadgetV1alpha1.Spec(source.getSpec().paint().colour()));
            return target;
        }
    };

    static final Converter<GadgetV2, GadgetV1> V2_TO_V1 = Converter.of(
            v2 -> GadgetV1.painted(v2.getMetadata().getName(), v2.getSpec().colour(), v2.getSpec().finish()),
            v1 -> {
                GadgetV2 v2 = new GadgetV2();
                v2.setSpec(new GadgetV2.Spec(v1.getSpec().paint().colour(), v1.getSpec().paint().finish()));
                return v2;
            });

    private static final String ALPHA = """
            {"apiVersion":"webhooks.operatorstarter.dev/v1alpha1","kind":"Gadget",
             "metadata":{"name":"g","namespace":"ns","uid":"1234","resourceVersion":"7","generation":2,
                         "creationTimestamp":"2026-11-23T10:00:00Z","labels":{"team":"blue"},
                         "annotations":{"webhooks.operatorstarter.dev/finish":"gloss","note":"kept"},
                         "managedFields":[{"manager":"kubectl","operation":"Apply"}]},
             "spec":{"colour":"red"}}""";

    @Test
    void anObjectIsConvertedToTheDesiredVersionAndBackWithoutLoss() {
        ConversionEndpoint endpoint = ConversionEndpoint.builder()
                .converter(GadgetV1alpha1.class, GadgetV1.class, ALPHA_TO_V1).build();

        JsonNode v1 = converted(endpoint, "webhooks.operatorstarter.dev/v1", ALPHA).get(0);
        JsonNode back = converted(endpoint, "webhooks.operatorstarter.dev/v1alpha1", v1.toString()).get(0);

        assertThat(v1.path("apiVersion").asString()).isEqualTo("webhooks.operatorstarter.dev/v1");
        assertThat(v1.path("kind").asString()).isEqualTo("Gadget");
        assertThat(v1.path("spec")).isEqualTo(JSON.readTree("{\"paint\":{\"colour\":\"red\",\"finish\":\"gloss\"},\"parts\":[]}"));
        assertThat(v1.path("metadata").path("annotations")).isEqualTo(JSON.readTree("{\"note\":\"kept\"}"));
        assertThat(back).isEqualTo(JSON.readTree(ALPHA));
    }

    @Test
    void metadataOtherThanLabelsAndAnnotationsIsKeptAsItCameWhateverTheConverterDoes() {
        Converter<GadgetV1alpha1, GadgetV1> careless = Converter.of(alpha -> {
            GadgetV1 v1 = GadgetV1.painted("renamed", alpha.getSpec().colour(), "matte");
            v1.getMetadata().setUid("other");
            return v1;
        }, v1 -> {
            throw new UnsupportedOperationException();
        });
        Converter<GadgetV1alpha1, GadgetV1> relabelling = Converter.of(alpha -> {
            GadgetV1 v1 = GadgetV1.painted("g", alpha.getSpec().colour(), "matte");
            v1.setMetadata(alpha.getMetadata());
            v1.getMetadata().setLabels(Map.of("team", "green"));
            v1.getMetadata().setResourceVersion("99");
            return v1;
        }, v1 -> {
            throw new UnsupportedOperationException();
        });
        JsonNode metadata = JSON.readTree(ALPHA).path("metadata");

        JsonNode fresh = converted(ConversionEndpoint.builder().converter(GadgetV1alpha1.class, GadgetV1.class, careless)
                .build(), "webhooks.operatorstarter.dev/v1", ALPHA).get(0);
        JsonNode relabelled = converted(ConversionEndpoint.builder()
                .converter(GadgetV1alpha1.class, GadgetV1.class, relabelling).build(), "webhooks.operatorstarter.dev/v1",
                ALPHA).get(0);

        assertThat(fresh.path("metadata")).as("fresh metadata: everything kept").isEqualTo(metadata);
        assertThat(relabelled.path("metadata")).isEqualTo(((ObjectNode) metadata.deepCopy())
                .set("labels", JSON.readTree("{\"team\":\"green\"}")));
    }

    @Test
    void withAHubTwoOtherVersionsConvertThroughIt() {
        ConversionEndpoint endpoint = ConversionEndpoint.builder()
                .converter(GadgetV1alpha1.class, GadgetV1.class, ALPHA_TO_V1)
                .converter(GadgetV2.class, GadgetV1.class, V2_TO_V1)
                .hub(GadgetV1.class).build();

        JsonNode v2 = converted(endpoint, "webhooks.operatorstarter.dev/v2", ALPHA).get(0);

        assertThat(endpoint.versions()).containsExactly("webhooks.operatorstarter.dev/v1alpha1",
                "webhooks.operatorstarter.dev/v1", "webhooks.operatorstarter.dev/v2");
        assertThat(v2.path("apiVersion").asString()).isEqualTo("webhooks.operatorstarter.dev/v2");
        assertThat(v2.path("spec")).isEqualTo(JSON.readTree("{\"colour\":\"red\",\"finish\":\"gloss\"}"));
        assertThat(v2.path("metadata").path("uid").asString()).isEqualTo("1234");
    }

    @Test
    void aListOfMixedVersionsIsConvertedInOrderAndObjectsAlreadyInTheDesiredVersionAreLeftAlone() {
        ConversionEndpoint endpoint = ConversionEndpoint.builder()
                .converter(GadgetV1alpha1.class, GadgetV1.class, ALPHA_TO_V1).build();
        String v1 = """
                {"apiVersion":"webhooks.operatorstarter.dev/v1","kind":"Gadget","metadata":{"name":"h"},
                 "spec":{"paint":{"colour":"blue","finish":"matte"},"parts":[],"unknown":1}}""";

        List<JsonNode> objects = converted(endpoint, "webhooks.operatorstarter.dev/v1", ALPHA, v1);

        assertThat(objects).hasSize(2);
        assertThat(objects.get(0).path("metadata").path("name").asString()).isEqualTo("g");
        assertThat(objects.get(1)).isEqualTo(JSON.readTree(v1));
    }

    @Test
    void failuresFailTheWholeRequestWithAMessageNamingTheObjectAndTheStep() {
        ConversionEndpoint endpoint = ConversionEndpoint.builder()
                .converter(GadgetV1alpha1.class, GadgetV1.class, Converter.<GadgetV1alpha1, GadgetV1>of(alpha -> {
                    throw new IllegalStateException("colour " + alpha.getSpec().colour() + " has no paint");
                }, v1 -> null))
                .converter(GadgetV2.class, GadgetV1.class, V2_TO_V1).build();

        assertThat(failure(endpoint, "webhooks.operatorstarter.dev/v1", ALPHA)).isEqualTo("converting Gadget ns/g from "
                + "webhooks.operatorstarter.dev/v1alpha1 to webhooks.operatorstarter.dev/v1 failed: "
                + ConversionRoutes.CONVERTER_FAILED);
        assertThat(failure(endpoint, "webhooks.operatorstarter.dev/v2", ALPHA)).isEqualTo("no converter from "
                + "webhooks.operatorstarter.dev/v1alpha1 to webhooks.operatorstarter.dev/v2 for Gadget ns/g: register a "
                + "converter between them, or declare a hub version that both convert with");
        assertThat(failure(endpoint, "webhooks.operatorstarter.dev/v1", ALPHA.replace("v1alpha1", "v9")))
                .isEqualTo("Gadget ns/g is in webhooks.operatorstarter.dev/v9, which this webhook does not convert "
                        + "(it converts [webhooks.operatorstarter.dev/v1alpha1, webhooks.operatorstarter.dev/v1, "
                        + "webhooks.operatorstarter.dev/v2])");
        assertThat(failure(endpoint, "webhooks.operatorstarter.dev/v1", ALPHA.replace("\"Gadget\"", "\"Gizmo\"")))
                .isEqualTo("Gizmo ns/g is a Gizmo, this webhook converts Gadget of webhooks.operatorstarter.dev");
        assertThat(failure(endpoint, "webhooks.operatorstarter.dev/v1", ALPHA.replace("{\"colour\":\"red\"}", "[1]")))
                .startsWith("Gadget ns/g cannot be decoded into dev.operatorstarter.webhook.GadgetV1alpha1: ");
        assertThat(JSON.readTree(endpoint.handle("[]".getBytes())).path("response").path("result").path("message")
                .asString()).isEqualTo("the request body is not a ConversionReview with a request");
    }

    @Test
    void theTypedReviewAnswersWithTheRequestsUid() {
        ConversionEndpoint endpoint = ConversionEndpoint.builder()
                .converter(GadgetV1alpha1.class, GadgetV1.class, ALPHA_TO_V1).build();
        ConversionReview review = new ConversionReviewBuilder().withApiVersion("apiextensions.k8s.io/v1")
                .withKind("ConversionReview").withNewRequest().withUid("uid-5")
                .withDesiredAPIVersion("webhooks.operatorstarter.dev/v1")
                .withObjects(JSON.readValue(ALPHA, Map.class)).endRequest().build();

        ConversionReview answered = endpoint.review(review);

        assertThat(answered.getRequest()).isNull();
        assertThat(answered.getResponse().getUid()).isEqualTo("uid-5");
        assertThat(answered.getResponse().getResult().getStatus()).isEqualTo("Success");
        assertThat(((JsonNode) answered.getResponse().getConvertedObjects().get(0)).path("spec").path("paint")
                .path("finish").asString()).isEqualTo("gloss");
    }

    @Test
    void theBuilderRefusesConvertersThatDoNotFitTogether() {
        assertThatThrownBy(() -> ConversionEndpoint.builder().build())
                .hasMessage("a conversion endpoint needs at least one converter");
        assertThatThrownBy(() -> ConversionEndpoint.builder()
                .converter(GadgetV1alpha1.class, GadgetV1.class, ALPHA_TO_V1)
                .converter(GadgetV1.class, GadgetV1alpha1.class, Converter.of(v1 -> null, alpha -> null)).build())
                .hasMessage("two converters join webhooks.operatorstarter.dev/v1 and "
                        + "webhooks.operatorstarter.dev/v1alpha1; keep one");
        assertThatThrownBy(() -> ConversionEndpoint.builder()
                .converter(GadgetV1alpha1.class, ConfigMap.class, Converter.of(alpha -> null, map -> null)).build())
                .hasMessageStartingWith("one conversion endpoint converts one kind: io.fabric8.kubernetes.api.model."
                        + "ConfigMap is ConfigMap of '', the others Gadget of 'webhooks.operatorstarter.dev'");
        assertThatThrownBy(() -> ConversionEndpoint.builder()
                .converter(GadgetV1alpha1.class, GadgetV1.class, ALPHA_TO_V1)
                .converter(GadgetV2.class, GadgetV1alpha1.class, Converter.of(v2 -> null, alpha -> null))
                .hub(GadgetV1.class).build())
                .hasMessage("the hub webhooks.operatorstarter.dev/v1 has no converter with [webhooks.operatorstarter.dev/v2]");
        assertThatThrownBy(() -> ConversionEndpoint.builder()
                .converter(GadgetV1alpha1.class, GadgetV1.class, ALPHA_TO_V1).hub(GadgetV2.class).build())
                .hasMessage("the hub dev.operatorstarter.webhook.GadgetV2 is not one of the versions the converters join: "
                        + "[webhooks.operatorstarter.dev/v1alpha1, webhooks.operatorstarter.dev/v1]");
    }

    /** An Error no converter should throw, as Kotlin's {@code TODO()} throws {@code NotImplementedError}. */
    static final class NotWrittenYet extends Error {
        private static final long serialVersionUID = 1L;

        NotWrittenYet() {
            super("secret detail: token=abc");
        }
    }

    @Test
    void aConverterThatThrowsAnyErrorFailsTheRequestWithAGenericMessageRatherThanLeavingItUnanswered() {
        ConversionEndpoint endpoint = ConversionEndpoint.builder()
                .converter(GadgetV1alpha1.class, GadgetV1.class, Converter.<GadgetV1alpha1, GadgetV1>of(alpha -> {
                    throw new NotWrittenYet();
                }, v1 -> {
                    throw new NotWrittenYet();
                })).build();

        String message = failure(endpoint, "webhooks.operatorstarter.dev/v1", ALPHA);
        ConversionReview reviewed = endpoint.review(JSON.treeToValue(JSON.readTree("""
                {"apiVersion":"apiextensions.k8s.io/v1","kind":"ConversionReview",
                 "request":{"uid":"uid-c","desiredAPIVersion":"webhooks.operatorstarter.dev/v1","objects":[%s]}}"""
                .formatted(ALPHA)), ConversionReview.class));

        assertThat(message).isEqualTo("converting Gadget ns/g from webhooks.operatorstarter.dev/v1alpha1 to "
                + "webhooks.operatorstarter.dev/v1 failed: " + ConversionRoutes.CONVERTER_FAILED).doesNotContain("secret");
        assertThat(reviewed.getResponse().getResult().getStatus()).isEqualTo("Failure");
        assertThat(reviewed.getResponse().getResult().getMessage()).isEqualTo(message);
    }

    private static List<JsonNode> converted(ConversionEndpoint endpoint, String desired, String... objects) {
        JsonNode response = answer(endpoint, desired, objects);
        assertThat(response.path("result").path("status").asString()).as(response.toString()).isEqualTo("Success");
        assertThat(response.path("uid").asString()).isEqualTo("uid-c");
        return List.copyOf(response.path("convertedObjects").values());
    }

    private static String failure(ConversionEndpoint endpoint, String desired, String... objects) {
        JsonNode response = answer(endpoint, desired, objects);
        assertThat(response.path("result").path("status").asString()).isEqualTo("Failure");
        assertThat(response.path("convertedObjects").size()).isZero();
        return response.path("result").path("message").asString();
    }

    private static JsonNode answer(ConversionEndpoint endpoint, String desired, String... objects) {
        ObjectNode review = (ObjectNode) JSON.readTree("""
                {"apiVersion":"apiextensions.k8s.io/v1","kind":"ConversionReview",
                 "request":{"uid":"uid-c","desiredAPIVersion":"%s"}}""".formatted(desired));
        ArrayNode list = ((ObjectNode) review.get("request")).putArray("objects");
        for (String object : objects) {
            list.add(JSON.readTree(object));
        }
        JsonNode answer = JSON.readTree(endpoint.handle(JSON.writeValueAsBytes(review)));
        assertThat(answer.path("apiVersion").asString()).isEqualTo("apiextensions.k8s.io/v1");
        assertThat(answer.path("kind").asString()).isEqualTo("ConversionReview");
        return answer.path("response");
    }
}
