package dev.operatorstarter.drain;

import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.Pod;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Optional;

/**
 * kubectl drain's filters, in its order: a Pod terminating for too long, a DaemonSet's Pod, a mirror
 * Pod, a Pod with {@code emptyDir} data, a Pod without a controller. A Pod that has finished
 * (Succeeded or Failed) loses nothing by eviction and passes the last three.
 */
final class PodFilter {

    /** The annotation the kubelet puts on the API's copy of a static Pod. */
    static final String MIRROR_ANNOTATION = "kubernetes.io/config.mirror";

    private final DrainOptions options;

    PodFilter(DrainOptions options) {
        this.options = options;
    }

    /** What to do with {@code pod}, judged at wall time {@code now}. */
    PodVerdict verdict(Pod pod, Instant now) {
        String deletion = pod.getMetadata().getDeletionTimestamp();
        if (deletion != null && !deletion.isEmpty()) {
            Duration skip = options.skipTerminatingAfter();
            if (skip != null && terminatingFor(deletion, now).compareTo(skip) > 0) {
                return new PodVerdict.LeaveAlone("terminating since " + deletion + ", longer than skipTerminatingAfter ("
                        + skip + ")");
            }
            return new PodVerdict.Await();
        }
        Optional<OwnerReference> controller = controllerOf(pod);
        boolean finished = "Succeeded".equals(phase(pod)) || "Failed".equals(phase(pod));
        if (controller.isPresent() && "DaemonSet".equals(controller.get().getKind()) && !finished) {
            return new PodVerdict.LeaveAlone("owned by DaemonSet " + controller.get().getName());
        }
        if (pod.getMetadata().getAnnotations() != null
                && pod.getMetadata().getAnnotations().containsKey(MIRROR_ANNOTATION)) {
            return new PodVerdict.LeaveAlone("a mirror Pod: its node's kubelet runs it from a static manifest");
        }
        if (!finished && !options.deleteEmptyDirData() && hasEmptyDir(pod)) {
            return new PodVerdict.Refuse("its emptyDir data would be lost (DrainOptions.deleteEmptyDirData)");
        }
        if (!finished && !options.force() && controller.isEmpty()) {
            return new PodVerdict.Refuse("no controller would recreate it (DrainOptions.force)");
        }
        return new PodVerdict.Evict();
    }

    static Optional<OwnerReference> controllerOf(Pod pod) {
        if (pod.getMetadata().getOwnerReferences() == null) {
            return Optional.empty();
        }
        return pod.getMetadata().getOwnerReferences().stream()
                .filter(owner -> Boolean.TRUE.equals(owner.getController())).findFirst();
    }

    private static boolean hasEmptyDir(Pod pod) {
        return pod.getSpec() != null && pod.getSpec().getVolumes() != null
                && pod.getSpec().getVolumes().stream().anyMatch(volume -> volume.getEmptyDir() != null);
    }

    private static String phase(Pod pod) {
        return pod.getStatus() == null ? "" : String.valueOf(pod.getStatus().getPhase());
    }

    /** How long since {@code deletionTimestamp}; zero when it cannot be read (then never "too long"). */
    private static Duration terminatingFor(String deletionTimestamp, Instant now) {
        try {
            Duration since = Duration.between(Instant.parse(deletionTimestamp), now);
            return since.isNegative() ? Duration.ZERO : since;
        } catch (DateTimeParseException e) {
            return Duration.ZERO;
        }
    }
}
