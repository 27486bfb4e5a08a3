package dev.operatorstarter.drain;

import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * A drain that did not complete; the message names the node, the step that failed and the Pod.
 * The node stays cordoned.
 */
public class DrainException extends RuntimeException {

    private final String node;

    public DrainException(String node, String message, @Nullable Throwable cause) {
        super(message, cause);
        this.node = node;
    }

    /** The node being drained. */
    public String node() {
        return node;
    }

    /**
     * Pods the options do not allow to evict (no controller, or {@code emptyDir} data); nothing was
     * evicted.
     */
    public static final class Refused extends DrainException {

        private final List<String> pods;

        public Refused(String node, List<String> pods) {
            super(node, "cannot drain node " + node + " without evicting Pods the options do not allow: "
                    + String.join("; ", pods), null);
            this.pods = List.copyOf(pods);
        }

        /** Each refused Pod as {@code namespace/name: why}. */
        public List<String> pods() {
            return pods;
        }
    }

    /** Pods were still on the node when the drain's deadline passed. */
    public static final class DeadlineExceeded extends DrainException {

        private final List<String> pods;

        public DeadlineExceeded(String node, String deadline, List<String> pods) {
            super(node, "node " + node + " was not drained within " + deadline + "; still there: "
                    + String.join("; ", pods), null);
            this.pods = List.copyOf(pods);
        }

        /** Each remaining Pod as {@code namespace/name: the last answer about it}. */
        public List<String> pods() {
            return pods;
        }
    }
}
