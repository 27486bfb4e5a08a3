package dev.operatorstarter.controller;

import io.fabric8.kubernetes.api.model.HasMetadata;
import java.util.ArrayList;
import java.util.List;

/**
 * Finalizers on an object's metadata. The methods change the object in memory and say whether
 * they did; write it afterwards (update, or a patch of {@code metadata.finalizers}).
 */
public final class Finalizers {

    private Finalizers() {
    }

    public static boolean has(HasMetadata object, String finalizer) {
        List<String> finalizers = object.getMetadata().getFinalizers();
        return finalizers != null && finalizers.contains(finalizer);
    }

    /** Adds {@code finalizer} unless present; true if added. */
    public static boolean add(HasMetadata object, String finalizer) {
        if (finalizer == null || finalizer.isBlank()) {
            throw new IllegalArgumentException("a finalizer needs a name");
        }
        if (has(object, finalizer)) {
            return false;
        }
        List<String> finalizers = object.getMetadata().getFinalizers() == null ? new ArrayList<>()
                : new ArrayList<>(object.getMetadata().getFinalizers());
        finalizers.add(finalizer);
        object.getMetadata().setFinalizers(finalizers);
        return true;
    }

    /** Removes {@code finalizer}; true if it was there. */
    public static boolean remove(HasMetadata object, String finalizer) {
        if (!has(object, finalizer)) {
            return false;
        }
        List<String> finalizers = new ArrayList<>(object.getMetadata().getFinalizers());
        finalizers.removeIf(finalizer::equals);
        object.getMetadata().setFinalizers(finalizers);
        return true;
    }

    /** True once deletion was requested (the object stays until every finalizer is removed). */
    public static boolean isBeingDeleted(HasMetadata object) {
        return object.getMetadata().getDeletionTimestamp() != null;
    }
}
