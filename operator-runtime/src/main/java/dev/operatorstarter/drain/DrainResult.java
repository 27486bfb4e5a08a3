package dev.operatorstarter.drain;

import java.util.List;
import java.util.Map;

/**
 * What a drain did, each Pod named {@code namespace/name}.
 *
 * @param evicted the Pods the drain removed from the node, in the order they were found gone:
 *     those it evicted and those that were already terminating, which it waited for
 * @param leftAlone the Pods the drain did not touch, each with why: a DaemonSet's, a mirror Pod, or
 *     one terminating for longer than {@code skipTerminatingAfter}
 * @param budgetRefusals how many evictions the server refused with 429 (a PodDisruptionBudget
 *     that could not spare the Pod yet) and the drain tried again: 0 when no budget held it up
 */
public record DrainResult(List<String> evicted, Map<String, String> leftAlone, int budgetRefusals) {

    public DrainResult {
        evicted = List.copyOf(evicted);
        leftAlone = Map.copyOf(leftAlone);
    }
}
