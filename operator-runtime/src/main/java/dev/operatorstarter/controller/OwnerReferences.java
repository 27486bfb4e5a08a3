package dev.operatorstarter.controller;

import dev.operatorstarter.client.ResourceType;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/** Owner references (controller-runtime's {@code controllerutil.SetControllerReference}). */
public final class OwnerReferences {

    private OwnerReferences() {
    }

    /**
     * Makes {@code owner} the controller of {@code owned} (with {@code blockOwnerDeletion}), so
     * the garbage collector deletes {@code owned} with its owner and {@link ControllerBuilder#owns}
     * maps {@code owned}'s changes to {@code owner}.
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
                return;
            }
        }
        references.removeIf(existing -> Objects.equals(existing.getUid(), reference.getUid()));
        references.add(reference);
        owned.getMetadata().setOwnerReferences(references);
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
