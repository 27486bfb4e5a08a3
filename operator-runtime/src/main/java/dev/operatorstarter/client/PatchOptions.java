package dev.operatorstarter.client;

import org.jspecify.annotations.Nullable;

/**
 * Options of a patch or apply.
 *
 * @param fieldManager who owns the fields written; required for server-side apply
 * @param force for server-side apply: take fields owned by other managers instead of failing with 409
 * @param dryRun run admission and validation without persisting
 */
public record PatchOptions(@Nullable String fieldManager, boolean force, boolean dryRun) {

    public PatchOptions {
        if (fieldManager != null && fieldManager.isBlank()) {
            throw new IllegalArgumentException("fieldManager must not be blank");
        }
    }

    /** No field manager, no force, not a dry run. */
    public static PatchOptions none() {
        return new PatchOptions(null, false, false);
    }

    /** Server-side apply as {@code fieldManager}, failing on conflicts with other managers. */
    public static PatchOptions apply(String fieldManager) {
        return new PatchOptions(fieldManager, false, false);
    }

    /** Server-side apply as {@code fieldManager}, taking over conflicting fields. */
    public static PatchOptions forceApply(String fieldManager) {
        return new PatchOptions(fieldManager, true, false);
    }

    public PatchOptions withDryRun() {
        return new PatchOptions(fieldManager, force, true);
    }
}
