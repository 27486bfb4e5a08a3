package dev.operatorstarter.webhook;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.GroupVersionKind;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionRequestBuilder;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionReview;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionReviewBuilder;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

class AdmissionEndpointTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final String GADGET = """
            {"apiVersion":"webhooks.operatorstarter.dev/v1","kind":"Gadget",
             "metadata":{"name":"g","namespace":"ns","labels":{"team":"blue"}},
             "spec":{"paint":{"colour":"red","finish":"matte"},"parts":["a","b"]}}""";

    @Test
    void aDenialCarriesTheHandlersMessageReasonCodeAndWarnings() {
        AdmissionEndpoint endpoint = AdmissionEndpoint.validating(GadgetV1.class, admission ->
                AdmissionVerdict.deny(422, "Invalid", "a gadget cannot be " + admission.object().getSpec().paint().colour())
                        .withWarning("red is deprecated"));

        JsonNode response = answer(endpoint, review("CREATE", GADGET, null));

        assertThat(response.path("uid").asString()).isEqualTo("uid-1");
        assertThat(response.path("allowed").asBoolean()).isFalse();
        assertThat(response.path("status").path("message").asString()).isEqualTo("a gadget cannot be red");
        assertThat(response.path("status").path("reason").asString()).isEqualTo("Invalid");
        assertThat(response.path("status").path("code").asInt()).isEqualTo(422);
        assertThat(response.path("warnings")).containsExactly(JSON.readTree("\"red is deprecated\""));
    }

    @Test
    void aPlainDenialIsForbiddenAndAnAllowanceEchoesTheReviewsIdentity() {
        AdmissionEndpoint endpoint = AdmissionEndpoint.validating(GadgetV1.class, admission ->
                "red".equals(admission.subject().getSpec().paint().colour()) ? AdmissionVerdict.deny("no red")
                        : AdmissionVerdict.allow());

        JsonNode denied = answer(endpoint, review("CREATE", GADGET, null)).path("status");
        JsonNode allowed = JSON.readTree(endpoint.handle(bytes(review("CREATE", GADGET.replace("red", "blue"), null))));

        assertThat(denied.path("code").asInt()).isEqualTo(403);
        assertThat(denied.path("reason").asString()).isEqualTo("Forbidden");
        assertThat(allowed.path("apiVersion").asString()).isEqualTo("admission.k8s.io/v1");
        assertThat(allowed.path("kind").asString()).isEqualTo("AdmissionReview");
        assertThat(allowed.has("request")).isFalse();
        assertThat(allowed.path("response").path("allowed").asBoolean()).isTrue();
        assertThat(allowed.path("response").path("uid").asString()).isEqualTo("uid-1");
    }

    @Test
    void anUpdateShowsBothObjectsADeleteOnlyTheOldOneAndTheHandlerSeesDryRunAndTheUser() {
        List<Admission<GadgetV1>> seen = new ArrayList<>();
        AdmissionEndpoint endpoint = AdmissionEndpoint.validating(GadgetV1.class, admission -> {
            seen.add(admission);
            return AdmissionVerdict.allow();
        });
        ObjectNode update = review("UPDATE", GADGET.replace("red", "blue"), GADGET);
        ((ObjectNode) update.get("request")).put("dryRun", true);

        answer(endpoint, update);
        answer(endpoint, review("DELETE", null, GADGET));

        Admission<GadgetV1> updating = seen.get(0);
        assertThat(updating.operation()).isEqualTo(Admission.Operation.UPDATE);
        assertThat(updating.object().getSpec().paint().colour()).isEqualTo("blue");
        assertThat(updating.oldObject().getSpec().paint().colour()).isEqualTo("red");
        assertThat(updating.dryRun()).isTrue();
        assertThat(updating.userInfo().getUsername()).isEqualTo("alice");
        assertThat(updating.userInfo().getGroups()).containsExactly("developers");
        assertThat(updating.namespace()).isEqualTo("ns");
        assertThat(updating.name()).isEqualTo("g");
        assertThat(updating.resource().getResource()).isEqualTo("gadgets");
        assertThat(updating.request().getObject()).as("the request's raw object is not decoded twice").isNull();
        Admission<GadgetV1> deleting = seen.get(1);
        assertThat(deleting.operation()).isEqualTo(Admission.Operation.DELETE);
        assertThat(deleting.object()).isNull();
        assertThat(deleting.subject().getSpec().paint().colour()).isEqualTo("red");
        assertThat(deleting.dryRun()).isFalse();
    }

    @Test
    void aHandlerThatThrowsGivesADenialWithCode500AndAGenericMessageThatLeaksNothing() {
        AdmissionEndpoint endpoint = AdmissionEndpoint.validating(GadgetV1.class, admission -> {
            throw new IllegalStateException("the rule book is missing");
        });

        JsonNode response = answer(endpoint, review("CREATE", GADGET, null));

        assertThat(response.path("uid").asString()).isEqualTo("uid-1");
        assertThat(response.path("allowed").asBoolean()).isFalse();
        assertThat(response.path("status").path("code").asInt()).isEqualTo(500);
        assertThat(response.path("status").path("reason").asString()).isEqualTo("InternalError");
        assertThat(response.path("status").path("message").asString()).isEqualTo(AdmissionReviews.HANDLER_FAILED);
    }

    /** An Error no handler should throw, as Kotlin's {@code TODO()} throws {@code NotImplementedError}. */
    static final class NotWrittenYet extends Error {
        private static final long serialVersionUID = 1L;

        NotWrittenYet() {
            super("secret detail: token=abc");
        }
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"validating", "mutating"})
    void aHandlerThatThrowsAnyErrorIsDeniedWith500RatherThanLeftUnanswered(String kind) {
        AdmissionEndpoint endpoint = "validating".equals(kind)
                ? AdmissionEndpoint.validating(GadgetV1.class, admission -> {
                    throw new NotWrittenYet();
                })
                : AdmissionEndpoint.mutating(GadgetV1.class, admission -> {
                    throw new NotWrittenYet();
                });

        JsonNode response = answer(endpoint, review("CREATE", GADGET, null));
        AdmissionReview reviewed = endpoint.review(JSON.treeToValue(review("CREATE", GADGET, null), AdmissionReview.class));

        assertThat(response.path("uid").asString()).isEqualTo("uid-1");
        assertThat(response.path("allowed").asBoolean()).isFalse();
        assertThat(response.path("status").path("code").asInt()).isEqualTo(500);
        assertThat(response.path("status").path("message").asString()).isEqualTo(AdmissionReviews.HANDLER_FAILED)
                .doesNotContain("secret");
        assertThat(response.has("patch")).isFalse();
        assertThat(reviewed.getResponse().getAllowed()).isFalse();
        assertThat(reviewed.getResponse().getStatus().getCode()).isEqualTo(500);
    }

    @Test
    void anObjectThatCannotBeDecodedIsDeniedNamingTheClassAndTheProblem() {
        AdmissionEndpoint endpoint = AdmissionEndpoint.validating(GadgetV1.class, admission -> AdmissionVerdict.allow());

        JsonNode response = answer(endpoint, review("CREATE", GADGET.replace("[\"a\",\"b\"]", "{\"not\":\"a list\"}"),
                null));

        assertThat(response.path("allowed").asBoolean()).isFalse();
        assertThat(response.path("status").path("code").asInt()).isEqualTo(400);
        assertThat(response.path("status").path("message").asString())
                .startsWith("the request's object cannot be decoded into dev.operatorstarter.webhook.GadgetV1: ");
    }

    @Test
    void aRequestForAnotherVersionIsDeniedNamingBothRatherThanDecodedIntoTheWrongClass() {
        AdmissionEndpoint endpoint = AdmissionEndpoint.validating(GadgetV1alpha1.class,
                admission -> AdmissionVerdict.allow());

        JsonNode response = answer(endpoint, review("CREATE", GADGET, null));

        assertThat(response.path("status").path("message").asString()).isEqualTo(
                "this webhook decodes webhooks.operatorstarter.dev/v1alpha1 Gadget (dev.operatorstarter.webhook."
                        + "GadgetV1alpha1), not webhooks.operatorstarter.dev/v1 Gadget: check the webhook "
                        + "configuration's rules and matchPolicy");
    }

    @Test
    void aBodyThatIsNotAnAdmissionReviewIsAnsweredWithADenialNotAnError() {
        AdmissionEndpoint endpoint = AdmissionEndpoint.validating(GadgetV1.class, admission -> AdmissionVerdict.allow());

        JsonNode notJson = JSON.readTree(endpoint.handle("{oops".getBytes())).path("response");
        JsonNode noRequest = JSON.readTree(endpoint.handle("{\"kind\":\"AdmissionReview\"}".getBytes())).path("response");

        assertThat(notJson.path("allowed").asBoolean()).isFalse();
        assertThat(notJson.path("status").path("code").asInt()).isEqualTo(400);
        assertThat(notJson.path("status").path("message").asString()).startsWith("the request body is not JSON: ");
        assertThat(noRequest.path("status").path("message").asString())
                .isEqualTo("the request body is not an AdmissionReview with a request");
    }

    @Test
    void theMutatedObjectBecomesAJsonPatchThatTurnsTheSentObjectIntoIt() {
        AdmissionEndpoint endpoint = AdmissionEndpoint.mutating(GadgetV1.class, admission -> {
            GadgetV1 gadget = admission.object();
            gadget.setSpec(new GadgetV1.Spec(new GadgetV1.Paint(gadget.getSpec().paint().colour(), "gloss"),
                    List.of("a", "hinge", "b")));
            gadget.getMetadata().getLabels().put("webhooks.operatorstarter.dev/defaulted", "true");
            return Mutation.allow(gadget);
        });

        JsonNode response = answer(endpoint, review("CREATE", GADGET, null));

        assertThat(response.path("allowed").asBoolean()).isTrue();
        assertThat(response.path("patchType").asString()).isEqualTo("JSONPatch");
        JsonNode patch = JSON.readTree(Base64.getDecoder().decode(response.path("patch").asString()));
        assertThat(patch).containsExactlyInAnyOrder(
                JSON.readTree("{\"op\":\"add\",\"path\":\"/metadata/labels/webhooks.operatorstarter.dev~1defaulted\","
                        + "\"value\":\"true\"}"),
                JSON.readTree("{\"op\":\"replace\",\"path\":\"/spec/paint/finish\",\"value\":\"gloss\"}"),
                JSON.readTree("{\"op\":\"add\",\"path\":\"/spec/parts/1\",\"value\":\"hinge\"}"));
        JsonNode expected = JSON.readTree(GADGET.replace("\"team\":\"blue\"",
                "\"team\":\"blue\",\"webhooks.operatorstarter.dev/defaulted\":\"true\"").replace("matte", "gloss")
                .replace("[\"a\",\"b\"]", "[\"a\",\"hinge\",\"b\"]"));
        assertThat(applied(patch, GADGET)).isEqualTo(expected);
    }

    @Test
    void fieldsTheClassDoesNotDeclareAreNeitherRemovedNorAddedByThePatch() {
        // "gloss" and "extra" are unknown to GadgetV1; "status" is filled in by nobody, "labels" is absent
        String sent = """
                {"apiVersion":"webhooks.operatorstarter.dev/v1","kind":"Gadget","extra":{"kept":1},
                 "metadata":{"name":"g","namespace":"ns"},
                 "spec":{"paint":{"colour":"red","finish":"matte","gloss":true},"parts":[]}}""";
        AdmissionEndpoint endpoint = AdmissionEndpoint.mutating(GadgetV1.class, admission -> {
            GadgetV1 gadget = admission.object();
            gadget.setSpec(new GadgetV1.Spec(new GadgetV1.Paint("blue", "matte"), gadget.getSpec().parts()));
            return Mutation.allow(gadget);
        });

        JsonNode response = answer(endpoint, review("CREATE", sent, null));

        JsonNode patch = JSON.readTree(Base64.getDecoder().decode(response.path("patch").asString()));
        assertThat(patch).containsExactly(
                JSON.readTree("{\"op\":\"replace\",\"path\":\"/spec/paint/colour\",\"value\":\"blue\"}"));
    }

    @Test
    void anUnchangedObjectGivesNoPatchAndAMutatingHandlerMayDenyWithWarnings() {
        AdmissionEndpoint unchanged = AdmissionEndpoint.mutating(GadgetV1.class,
                admission -> Mutation.allow(admission.object()).withWarning("looked, changed nothing"));
        AdmissionEndpoint denying = AdmissionEndpoint.mutating(GadgetV1.class, admission -> Mutation.deny("not today"));

        JsonNode same = answer(unchanged, review("UPDATE", GADGET, GADGET));
        JsonNode refused = answer(denying, review("CREATE", GADGET, null));

        assertThat(same.path("allowed").asBoolean()).isTrue();
        assertThat(same.has("patch")).isFalse();
        assertThat(same.has("patchType")).isFalse();
        assertThat(same.path("warnings").get(0).asString()).isEqualTo("looked, changed nothing");
        assertThat(refused.path("allowed").asBoolean()).isFalse();
        assertThat(refused.path("status").path("message").asString()).isEqualTo("not today");
    }

    @Test
    void aFabric8ModelClassIsMutatedThroughTheTypedReview() {
        AtomicReference<String> user = new AtomicReference<>();
        AdmissionEndpoint endpoint = AdmissionEndpoint.mutating(ConfigMap.class, admission -> {
            user.set(admission.userInfo().getUsername());
            ConfigMap map = admission.object();
            map.getData().putIfAbsent("mode", "default");
            return Mutation.allow(map);
        });
        ConfigMap sent = new ConfigMapBuilder().withNewMetadata().withName("settings").withNamespace("ns").endMetadata()
                .addToData("size", "3").build();
        AdmissionReview review = new AdmissionReviewBuilder().withApiVersion("admission.k8s.io/v1")
                .withKind("AdmissionReview").withRequest(new AdmissionRequestBuilder().withUid("uid-9")
                        .withKind(new GroupVersionKind("", "ConfigMap", "v1")).withOperation("CREATE")
                        .withNewUserInfo().withUsername("bob").endUserInfo().withObject(sent).build()).build();

        AdmissionReview answered = endpoint.review(review);

        assertThat(user).hasValue("bob");
        assertThat(answered.getRequest()).isNull();
        assertThat(answered.getResponse().getUid()).isEqualTo("uid-9");
        assertThat(answered.getResponse().getAllowed()).isTrue();
        assertThat(new String(Base64.getDecoder().decode(answered.getResponse().getPatch())))
                .isEqualTo("[{\"op\":\"add\",\"path\":\"/data/mode\",\"value\":\"default\"}]");
        assertThat(review.getRequest().getObject()).as("the caller's review is left as it was").isSameAs(sent);
        assertThat(sent.getData()).doesNotContainKey("mode");
    }

    private static JsonNode applied(JsonNode patch, String document) {
        List<JsonPatch.Operation> operations = new ArrayList<>();
        for (JsonNode operation : patch) {
            operations.add(new JsonPatch.Operation(JsonPatch.Op.valueOf(operation.path("op").asString().toUpperCase()),
                    operation.path("path").asString(), operation.get("value")));
        }
        return new JsonPatch(operations).applyTo(JSON.readTree(document));
    }

    private static JsonNode answer(AdmissionEndpoint endpoint, JsonNode review) {
        return JSON.readTree(endpoint.handle(bytes(review))).path("response");
    }

    private static byte[] bytes(JsonNode review) {
        return JSON.writeValueAsBytes(review);
    }

    /** An AdmissionReview as the API server sends it for a Gadget v1. */
    static ObjectNode review(String operation, String object, String oldObject) {
        ObjectNode review = (ObjectNode) JSON.readTree("""
                {"apiVersion":"admission.k8s.io/v1","kind":"AdmissionReview","request":{
                 "uid":"uid-1","kind":{"group":"webhooks.operatorstarter.dev","version":"v1","kind":"Gadget"},
                 "resource":{"group":"webhooks.operatorstarter.dev","version":"v1","resource":"gadgets"},
                 "requestKind":{"group":"webhooks.operatorstarter.dev","version":"v1","kind":"Gadget"},
                 "namespace":"ns","name":"g","operation":"%s",
                 "userInfo":{"username":"alice","groups":["developers"]},"dryRun":false}}""".formatted(operation));
        ObjectNode request = (ObjectNode) review.get("request");
        request.set("object", object == null ? JSON.nullNode() : JSON.readTree(object));
        request.set("oldObject", oldObject == null ? JSON.nullNode() : JSON.readTree(oldObject));
        return review;
    }
}
