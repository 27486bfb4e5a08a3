package dev.operatorstarter.drain;

import dev.operatorstarter.client.rest.KubernetesClientException;
import dev.operatorstarter.internal.Durations;
import dev.operatorstarter.time.TimeSource;
import io.fabric8.kubernetes.api.model.Pod;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** {@link NodeDrainer} by eviction: cordon, sort the Pods, then one loop over every Pod's {@link PodEviction}. */
final class EvictingNodeDrainer implements NodeDrainer {

    private static final Logger log = LoggerFactory.getLogger(NodeDrainer.class);

    private final DrainApi api;
    private final DrainOptions options;
    private final PodFilter filter;

    EvictingNodeDrainer(DrainApi api, DrainOptions options) {
        this.api = api;
        this.options = Objects.requireNonNull(options, "options");
        this.filter = new PodFilter(options);
    }

    @Override
    public void cordon(String node) {
        requireNode(node);
        step(node, "cordon", () -> {
            api.setUnschedulable(node, true);
            return null;
        });
    }

    @Override
    public void uncordon(String node) {
        requireNode(node);
        step(node, "uncordon", () -> {
            api.setUnschedulable(node, false);
            return null;
        });
    }

    @Override
    public DrainResult drain(String node, Duration deadline) throws InterruptedException {
        requireNode(node);
        Durations.requirePositive(deadline, "deadline");
        TimeSource time = options.timeSource();
        long end = time.deadlineAfter(deadline);
        cordon(node);
        List<Pod> pods = step(node, "list the Pods of", () -> api.podsOn(node, options.podSelector()));

        Instant wall = time.now();
        long now = time.nanoTime();
        Map<String, String> leftAlone = new LinkedHashMap<>();
        List<String> refused = new ArrayList<>();
        List<PodEviction> pending = new ArrayList<>();
        for (Pod pod : pods) {
            String key = pod.getMetadata().getNamespace() + "/" + pod.getMetadata().getName();
            PodVerdict verdict = filter.verdict(pod, wall);
            if (verdict instanceof PodVerdict.Evict) {
                pending.add(PodEviction.toEvict(pod, now));
            } else if (verdict instanceof PodVerdict.Await) {
                pending.add(PodEviction.toAwait(pod, now));
            } else if (verdict instanceof PodVerdict.LeaveAlone alone) {
                leftAlone.put(key, alone.reason());
            } else if (verdict instanceof PodVerdict.Refuse refuse) {
                refused.add(key + ": " + refuse.reason());
            }
        }
        if (!refused.isEmpty()) {
            throw new DrainException.Refused(node, refused);
        }
        log.info("Draining node {}: {} Pods to evict or wait for, {} left alone", node, pending.size(), leftAlone.size());
        List<String> gone = new ArrayList<>();
        int refusals = 0;
        while (true) {
            for (Iterator<PodEviction> it = pending.iterator(); it.hasNext();) {
                PodEviction eviction = it.next();
                if (eviction.state() instanceof PodEviction.Gone) {
                    gone.add(eviction.key());
                    refusals += eviction.budgetRefusals();
                    it.remove();
                }
            }
            if (pending.isEmpty()) {
                log.info("Drained node {}: {} Pods gone, {} evictions refused by disruption budgets on the way", node,
                        gone.size(), refusals);
                return new DrainResult(gone, leftAlone, refusals);
            }
            if (time.nanosUntil(end) == 0) {
                throw new DrainException.DeadlineExceeded(node, deadline.toString(), pending.stream()
                        .map(eviction -> eviction.key() + ": " + eviction.state().lastAnswer()).toList());
            }
            long next = end;
            boolean someGone = false;
            for (PodEviction eviction : pending) {
                if (eviction.state().due() - time.nanoTime() <= 0) {
                    eviction.step(node, api, options, end);
                }
                if (eviction.state() instanceof PodEviction.Gone) {
                    someGone = true;
                } else if (eviction.state().due() - next < 0) {
                    next = eviction.state().due();
                }
            }
            if (!someGone) {
                time.sleepUntil(next);
            }
        }
    }

    private static <T> T step(String node, String step, Supplier<T> request) {
        try {
            return request.get();
        } catch (KubernetesClientException e) {
            throw new DrainException(node, "cannot " + step + " node " + node + ": " + e.getMessage(), e);
        }
    }

    private static void requireNode(String node) {
        Objects.requireNonNull(node, "node");
        if (node.isEmpty()) {
            throw new IllegalArgumentException("the node to drain has no name: it was empty");
        }
    }
}
