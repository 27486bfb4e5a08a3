package dev.operatorstarter.controller;

import dev.operatorstarter.client.ResourceType;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/** Owner references (controller-runtime's {@code controllerutil.SetControllerReference}). */
public final class OwnerReferences {

    private OwnerReferences() {
    }

    /**
     * The prefix of the labels that say which shard of a ring holds an object
     * ({@code shard.sharding.operatorstarter.dev/<ring>}), which {@link #setController} copies from
     * the owner to the owned object.
     */
    public static final String SHARD_LABEL_PREFIX = "shard.sharding.operatorstarter.dev/";

    /**
     * Makes {@code owner} the controller of {@code owned} (with {@code blockOwnerDeletion}), so
     * the garbage collector deletes {@code owned} with its owner and {@link ControllerBuilder#owns}
     * maps {@code owned}'s changes to {@code owner}.
     *
     * <p>It also copies every label of the owner whose key starts with {@value #SHARD_LABEL_PREFIX}
     * onto {@code owned}, replacing the value {@code owned} had for that key: the shard that holds
     * the owner holds its children too, so a child created in a sharded reconcile lands in the
     * creating shard's cache at once. Other labels are left alone, and so is a shard label of
     * {@code owned} that the owner does not have. Without sharding the owner has no such labels and
     * this changes nothing else.
     *
     * @throws IllegalArgumentException when another object already controls {@code owned}, or the
     *     owner is namespaced in another namespace (cross-namespace owners are not allowed)
     */
    public static void setController(HasMetadata owner, HasMetadata owned) {
        String ownerNamespace = owner.getMetadata().getNamespace();
        String ownedNamespace = owned.getMetadata().getNamespace();
        if (ownerNamespace != null && !ownerNamespace.isEmpty() && !ownerNamespace.equals(ownedNamespace)) {
            throw new IllegalArgumentException("the owner " + owner.getKind() + " " + ownerNamespace + "/"
                    + owner.getMetadata().getName() + " cannot own an object in namespace " + ownedNamespace);
        }
        if (owner.getMetadata().getUid() == null) {
            throw new IllegalArgumentException("the owner " + owner.getMetadata().getName()
                    + " has no uid: read it from the server first");
        }
        OwnerReference reference = new OwnerReferenceBuilder().withApiVersion(owner.getApiVersion())
                .withKind(owner.getKind()).withName(owner.getMetadata().getName()).withUid(owner.getMetadata().getUid())
                .withController(true).withBlockOwnerDeletion(true).build();
        List<OwnerReference> references = owned.getMetadata().getOwnerReferences() == null ? new ArrayList<>()
                : new ArrayList<>(owned.getMetadata().getOwnerReferences());
        for (int i = 0; i < references.size(); i++) {
            OwnerReference existing = references.get(i);
            if (Boolean.TRUE.equals(existing.getController())) {
                if (!Objects.equals(existing.getUid(), reference.getUid())) {
                    throw new IllegalArgumentException(owned.getKind() + " " + owned.getMetadata().getName()
                            + " is already controlled by " + existing.getKind() + " " + existing.getName());
                }
                references.set(i, reference);
                owned.getMetadata().setOwnerReferences(references);
                copyShardLabels(owner, owned);
                return;
            }
        }
        references.removeIf(existing -> Objects.equals(existing.getUid(), reference.getUid()));
        references.add(reference);
        owned.getMetadata().setOwnerReferences(references);
        copyShardLabels(owner, owned);
    }

    private static void copyShardLabels(HasMetadata owner, HasMetadata owned) {
        Map<String, String> ownerLabels = owner.getMetadata().getLabels();
        if (ownerLabels == null) {
            return;
        }
        Map<String, String> labels = null;
        for (Map.Entry<String, String> label : ownerLabels.entrySet()) {
            if (label.getKey().startsWith(SHARD_LABEL_PREFIX)) {
                if (labels == null) {
                    labels = owned.getMetadata().getLabels() == null ? new LinkedHashMap<>()
                            : new LinkedHashMap<>(owned.getMetadata().getLabels());
                }
                labels.put(label.getKey(), label.getValue());
            }
        }
        if (labels != null) {
            owned.getMetadata().setLabels(labels);
        }
    }

    /**
     * The request for the controlling owner of {@code object} when that owner is of {@code ownerType}
     * (same kind, same API group, any version): the mapping {@link ControllerBuilder#owns} uses,
     * and controller-runtime's {@code handler.EnqueueRequestForOwner} with {@code OnlyControllerOwner}.
     * A namespaced owner is in the object's namespace (owner references never cross namespaces).
     *
     * @return the owner's request, or nothing when no owner reference of that type has {@code controller: true}
     */
    public static List<ReconcileRequest> controllerRequests(HasMetadata object, ResourceType<?> ownerType) {
        List<OwnerReference> references = object.getMetadata().getOwnerReferences();
        if (references == null) {
            return List.of();
        }
        List<ReconcileRequest> owners = new ArrayList<>(1);
        for (OwnerReference reference : references) {
            if (Boolean.TRUE.equals(reference.getController()) && Objects.equals(ownerType.kind(), reference.getKind())
                    && ownerType.group().equals(groupOf(reference.getApiVersion()))) {
                owners.add(new ReconcileRequest(ownerType.namespaced() ? object.getMetadata().getNamespace() : "",
                        reference.getName()));
            }
        }
        return owners;
    }

    private static String groupOf(String apiVersion) {
        if (apiVersion == null) {
            return "";
        }
        int slash = apiVersion.indexOf('/');
        return slash < 0 ? "" : apiVersion.substring(0, slash);
    }
}
