package dev.operatorstarter.event;

import io.fabric8.kubernetes.api.model.ObjectReference;
import java.time.Instant;

/** One recorded event, as queued for the writer. */
record Occurrence(ObjectReference regarding, EventType type, String reason, String action, String note,
        String reportingController, String reportingInstance, Instant time) {

    /** The namespace the Event is written to: the object's, or "default" for cluster-scoped objects. */
    String namespace() {
        String namespace = regarding.getNamespace();
        return namespace == null || namespace.isEmpty() ? "default" : namespace;
    }

    /** What makes two occurrences the same event (client-go's isomorphic events). */
    record Key(String kind, String namespace, String name, String uid, EventType type, String reason, String action,
            String reportingController) {
    }

    Key key() {
        return new Key(regarding.getKind(), namespace(), regarding.getName(),
                regarding.getUid() == null ? "" : regarding.getUid(), type, reason, action, reportingController);
    }

    /** The object, for the spam filter. */
    String objectKey() {
        return regarding.getKind() + "/" + namespace() + "/" + regarding.getName() + "/" + regarding.getUid();
    }
}
