package dev.operatorstarter.controller;

import dev.operatorstarter.client.PatchOptions;
import dev.operatorstarter.client.ResourceClient;
import dev.operatorstarter.client.RetryOnConflict;
import dev.operatorstarter.internal.Json;
import io.fabric8.kubernetes.api.model.HasMetadata;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Supplier;

/** Create-or-update and create-or-patch (controller-runtime's {@code controllerutil}). */
public final class Writes {

    private Writes() {
    }

    /** What a create-or-* call did. */
    public enum Outcome {
        CREATED, UPDATED, UNCHANGED
    }

    /**
     * Reads {@code name}, lets {@code mutate} bring it to the desired state and updates it when
     * that changed anything; creates {@code fresh} (mutated) when it does not exist. Retries on
     * conflict.
     */
    public static <T extends HasMetadata> Outcome createOrUpdate(ResourceClient<T> client, String name,
            Supplier<T> fresh, Consumer<T> mutate) {
        return RetryOnConflict.run(() -> {
            Optional<T> existing = client.find(name);
            if (existing.isEmpty()) {
                T created = fresh.get();
                mutate.accept(created);
                client.create(created);
                return Outcome.CREATED;
            }
            T current = existing.get();
            String before = Json.MAPPER.writeValueAsString(current);
            mutate.accept(current);
            if (before.equals(Json.MAPPER.writeValueAsString(current))) {
                return Outcome.UNCHANGED;
            }
            client.update(current);
            return Outcome.UPDATED;
        });
    }

    /**
     * Server-side apply of {@code desired} as {@code fieldManager}, forcing ownership of the fields
     * it sets: creates the object or changes only those fields, in one request.
     */
    public static <T extends HasMetadata> T createOrPatch(ResourceClient<T> client, T desired, String fieldManager) {
        return client.apply(desired, PatchOptions.forceApply(fieldManager));
    }
}
