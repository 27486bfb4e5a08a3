package dev.operatorstarter.client;

import java.util.LinkedHashMap;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * How to delete: what happens to dependents, a grace period, and preconditions that make the
 * delete fail with 409 if the object changed.
 *
 * @param propagation what the garbage collector does with dependents; null for the resource's default
 * @param gracePeriodSeconds seconds before the object is removed (pods); null for the default, 0 for now
 * @param preconditionUid delete only the object with this uid
 * @param preconditionResourceVersion delete only if the object is still at this resourceVersion
 * @param dryRun run admission without deleting
 */
public record DeleteOptions(@Nullable Propagation propagation, @Nullable Long gracePeriodSeconds,
        @Nullable String preconditionUid, @Nullable String preconditionResourceVersion, boolean dryRun) {

    public DeleteOptions {
        if (gracePeriodSeconds != null && gracePeriodSeconds < 0) {
            throw new IllegalArgumentException("gracePeriodSeconds must be 0 or more, was " + gracePeriodSeconds);
        }
    }

    /** The API's propagation policies. */
    public enum Propagation {
        /** Dependents are left without an owner. */
        ORPHAN("Orphan"),
        /** The object goes now; the garbage collector deletes dependents afterwards. */
        BACKGROUND("Background"),
        /** The object stays (with a finalizer) until its blocking dependents are gone. */
        FOREGROUND("Foreground");

        private final String value;

        Propagation(String value) {
            this.value = value;
        }

        public String value() {
            return value;
        }
    }

    /** The server's defaults. */
    public static DeleteOptions defaults() {
        return new DeleteOptions(null, null, null, null, false);
    }

    public static DeleteOptions propagation(Propagation propagation) {
        return new DeleteOptions(propagation, null, null, null, false);
    }

    public DeleteOptions withGracePeriodSeconds(long seconds) {
        return new DeleteOptions(propagation, seconds, preconditionUid, preconditionResourceVersion, dryRun);
    }

    public DeleteOptions withPreconditions(@Nullable String uid, @Nullable String resourceVersion) {
        return new DeleteOptions(propagation, gracePeriodSeconds, uid, resourceVersion, dryRun);
    }

    public DeleteOptions withDryRun() {
        return new DeleteOptions(propagation, gracePeriodSeconds, preconditionUid, preconditionResourceVersion, true);
    }

    /** The body of the DELETE request: a {@code meta.k8s.io/v1 DeleteOptions}. */
    Map<String, Object> toBody() {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("apiVersion", "v1");
        body.put("kind", "DeleteOptions");
        if (propagation != null) {
            body.put("propagationPolicy", propagation.value());
        }
        if (gracePeriodSeconds != null) {
            body.put("gracePeriodSeconds", gracePeriodSeconds);
        }
        if (preconditionUid != null || preconditionResourceVersion != null) {
            Map<String, Object> preconditions = new LinkedHashMap<>();
            if (preconditionUid != null) {
                preconditions.put("uid", preconditionUid);
            }
            if (preconditionResourceVersion != null) {
                preconditions.put("resourceVersion", preconditionResourceVersion);
            }
            body.put("preconditions", preconditions);
        }
        if (dryRun) {
            body.put("dryRun", java.util.List.of("All"));
        }
        return body;
    }
}
