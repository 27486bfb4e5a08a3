package dev.operatorstarter.controller;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.operatorstarter.cache.LabelSelector;
import dev.operatorstarter.client.ResourceType;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.ConditionBuilder;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class HelpersTest {

    private static Condition condition(String type, String status, String reason) {
        return new ConditionBuilder().withType(type).withStatus(status).withReason(reason).withMessage("m").build();
    }

    @Test
    void aConditionsTransitionTimeChangesOnlyWhenItsStatusChanges() {
        Clock first = Clock.fixed(Instant.parse("2026-01-01T00:00:00Z"), ZoneOffset.UTC);
        Clock later = Clock.fixed(Instant.parse("2026-01-01T01:00:00Z"), ZoneOffset.UTC);
        List<Condition> conditions = Conditions.set(null, condition("Ready", "False", "Starting"), first);
        conditions = Conditions.set(conditions, condition("Ready", "False", "StillStarting"), later);
        assertThat(conditions).singleElement().satisfies(c -> {
            assertThat(c.getReason()).isEqualTo("StillStarting");
            assertThat(c.getLastTransitionTime()).isEqualTo("2026-01-01T00:00:00Z");
        });
        conditions = Conditions.set(conditions, condition("Ready", "True", "Running"), later);
        conditions = Conditions.set(conditions, condition("Progressing", "False", "Done"), later);
        assertThat(Conditions.find(conditions, "Ready")).get()
                .satisfies(c -> assertThat(c.getLastTransitionTime()).isEqualTo("2026-01-01T01:00:00Z"));
        assertThat(Conditions.isTrue(conditions, "Ready")).isTrue();
        assertThat(Conditions.isTrue(conditions, "Progressing")).isFalse();
        assertThat(conditions).hasSize(2);
    }

    @Test
    void finalizersAreAddedAndRemovedOnce() {
        ConfigMap object = new ConfigMapBuilder().withNewMetadata().withName("a").endMetadata().build();
        assertThat(Finalizers.add(object, "example.com/cleanup")).isTrue();
        assertThat(Finalizers.add(object, "example.com/cleanup")).isFalse();
        assertThat(object.getMetadata().getFinalizers()).containsExactly("example.com/cleanup");
        assertThat(Finalizers.remove(object, "example.com/cleanup")).isTrue();
        assertThat(Finalizers.remove(object, "example.com/cleanup")).isFalse();
        assertThat(Finalizers.has(object, "example.com/cleanup")).isFalse();
    }

    @Test
    void anOwnerBecomesTheControllerOnceAndAnotherControllerIsRefused() {
        Deployment owner = new DeploymentBuilder().withNewMetadata().withNamespace("ns").withName("web").withUid("u1")
                .endMetadata().build();
        ConfigMap owned = new ConfigMapBuilder().withNewMetadata().withNamespace("ns").withName("web-config")
                .endMetadata().build();
        OwnerReferences.setController(owner, owned);
        OwnerReferences.setController(owner, owned);
        assertThat(owned.getMetadata().getOwnerReferences()).singleElement().satisfies(reference -> {
            assertThat(reference.getApiVersion()).isEqualTo("apps/v1");
            assertThat(reference.getKind()).isEqualTo("Deployment");
            assertThat(reference.getController()).isTrue();
            assertThat(reference.getBlockOwnerDeletion()).isTrue();
        });
        Deployment other = new DeploymentBuilder().withNewMetadata().withNamespace("ns").withName("api").withUid("u2")
                .endMetadata().build();
        assertThatThrownBy(() -> OwnerReferences.setController(other, owned)).hasMessageContaining("already controlled");
        Deployment elsewhere = new DeploymentBuilder().withNewMetadata().withNamespace("other").withName("x")
                .withUid("u3").endMetadata().build();
        assertThatThrownBy(() -> OwnerReferences.setController(elsewhere, owned)).hasMessageContaining("namespace");
    }

    @Test
    void theOwnersShardLabelsAndOnlyThoseAreCopiedToWhatItControls() {
        Deployment owner = new DeploymentBuilder().withNewMetadata().withNamespace("ns").withName("web").withUid("u1")
                .addToLabels("app", "web")
                .addToLabels("shard.sharding.operatorstarter.dev/ring-a", "replica-2")
                .addToLabels("shard.sharding.operatorstarter.dev/ring-b", "replica-7")
                .addToLabels("drain.sharding.operatorstarter.dev/ring-a", "true")
                .endMetadata().build();
        ConfigMap owned = new ConfigMapBuilder().withNewMetadata().withNamespace("ns").withName("web-config")
                .addToLabels("team", "platform")
                .addToLabels("shard.sharding.operatorstarter.dev/ring-a", "replica-1") // stale: the owner moved
                .addToLabels("shard.sharding.operatorstarter.dev/ring-c", "replica-3") // a ring the owner is not in
                .endMetadata().build();

        OwnerReferences.setController(owner, owned);

        assertThat(owned.getMetadata().getLabels()).containsOnly(
                Map.entry("team", "platform"),
                Map.entry("shard.sharding.operatorstarter.dev/ring-a", "replica-2"),
                Map.entry("shard.sharding.operatorstarter.dev/ring-b", "replica-7"),
                Map.entry("shard.sharding.operatorstarter.dev/ring-c", "replica-3"));
        assertThat(owner.getMetadata().getLabels()).hasSize(4);

        // Set again, as a reconcile does on every pass: the labels follow the owner's current ones.
        owner.getMetadata().getLabels().put("shard.sharding.operatorstarter.dev/ring-a", "replica-5");
        OwnerReferences.setController(owner, owned);
        assertThat(owned.getMetadata().getLabels()).containsEntry("shard.sharding.operatorstarter.dev/ring-a", "replica-5");

        ConfigMap unlabelled = new ConfigMapBuilder().withNewMetadata().withNamespace("ns").withName("plain")
                .endMetadata().build();
        Deployment unsharded = new DeploymentBuilder().withNewMetadata().withNamespace("ns").withName("api")
                .withUid("u2").addToLabels("app", "api").endMetadata().build();
        OwnerReferences.setController(unsharded, unlabelled);
        assertThat(unlabelled.getMetadata().getLabels()).as("nothing to copy, nothing added").isNullOrEmpty();
    }

    @Test
    void anOwnedObjectMapsToItsControllingOwnerOfTheRightKindAndGroupOnly() {
        // References a real object would not carry all at once: the mapping must pick the one that counts.
        ConfigMap owned = new ConfigMapBuilder().withNewMetadata().withNamespace("ns").withName("web-config")
                .addNewOwnerReference().withApiVersion("apps/v1").withKind("Deployment").withName("web")
                .withUid("u1").withController(true).endOwnerReference()
                .addNewOwnerReference().withApiVersion("v1").withKind("Deployment").withName("core-group")
                .withUid("u0").withController(true).endOwnerReference()
                .addNewOwnerReference().withApiVersion("apps/v1").withKind("Deployment").withName("not-controller")
                .withUid("u9").withController(false).endOwnerReference()
                .endMetadata().build();
        assertThat(OwnerReferences.controllerRequests(owned, ResourceType.of(Deployment.class)))
                .containsExactly(new ReconcileRequest("ns", "web"));
        assertThat(OwnerReferences.controllerRequests(owned, ResourceType.of(ConfigMap.class))).isEmpty();
        ConfigMap orphan = new ConfigMapBuilder().withNewMetadata().withNamespace("ns").withName("x").endMetadata()
                .build();
        assertThat(OwnerReferences.controllerRequests(orphan, ResourceType.of(Deployment.class))).isEmpty();
    }

    @Test
    void filtersCombine() {
        ConfigMap v1 = new ConfigMapBuilder().withNewMetadata().withName("a").withGeneration(1L).withResourceVersion("1")
                .addToLabels("app", "web").endMetadata().build();
        ConfigMap statusOnly = new ConfigMapBuilder(v1).editMetadata().withResourceVersion("2").endMetadata().build();
        ConfigMap specChange = new ConfigMapBuilder(v1).editMetadata().withGeneration(2L).withResourceVersion("3")
                .endMetadata().build();
        EventFilter<ConfigMap> generation = EventFilter.generationChanged();
        assertThat(generation.onUpdate(v1, statusOnly)).isFalse();
        assertThat(generation.onUpdate(v1, specChange)).isTrue();
        assertThat(EventFilter.<ConfigMap>resourceVersionChanged().onUpdate(v1, v1)).isFalse();
        EventFilter<ConfigMap> web = EventFilter.labelsMatch(LabelSelector.parse("app=web"));
        assertThat(generation.and(web).onUpdate(v1, specChange)).isTrue();
        assertThat(generation.and(web.negate()).onUpdate(v1, specChange)).isFalse();
        assertThat(generation.or(EventFilter.resourceVersionChanged()).onUpdate(v1, statusOnly)).isTrue();
        assertThat(EventFilter.<ConfigMap>labelsChanged().onUpdate(v1, statusOnly)).isFalse();
        assertThat(EventFilter.<ConfigMap>annotationsChanged().onUpdate(v1, statusOnly)).isFalse();
    }

    @Test
    void aReconcileIdIsARandomVersion4Uuid() {
        Set<String> ids = new HashSet<>();
        for (int i = 0; i < 1000; i++) {
            String id = Worker.reconcileId();
            UUID parsed = UUID.fromString(id);
            assertThat(parsed.version()).isEqualTo(4);
            assertThat(parsed.variant()).isEqualTo(2);
            assertThat(parsed.toString()).isEqualTo(id);
            ids.add(id);
        }
        assertThat(ids).hasSize(1000);
    }
}
