package dev.operatorstarter.autoconfigure.health;

import dev.operatorstarter.autoconfigure.OperatorStatus;
import dev.operatorstarter.autoconfigure.OperatorStatus.InformerStatus;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;

/**
 * UP when every informer has synced and none has lost its watch to an error; DOWN before the
 * first sync (so readiness stays DOWN until the caches are complete) and while a watch fails.
 * A watch being reopened normally, without an error, stays UP. Details per informer, and while
 * start-up waits for a CRD ({@code operator.informers.on-missing-crd=wait}) {@code waitingFor}
 * with a sentence per missing CRD.
 */
public final class InformersHealthIndicator implements HealthIndicator {

    private final OperatorStatus status;

    public InformersHealthIndicator(OperatorStatus status) {
        this.status = status;
    }

    @Override
    public Health health() {
        List<String> waitingFor = status.waitingFor();
        boolean up = waitingFor.isEmpty();
        Map<String, Object> details = new LinkedHashMap<>();
        if (!waitingFor.isEmpty()) {
            details.put("waitingFor", waitingFor);
        }
        for (InformerStatus informer : status.informers()) {
            boolean healthy = informer.synced() && (informer.watching() || informer.lastError() == null);
            up &= healthy;
            Map<String, Object> detail = new LinkedHashMap<>();
            detail.put("synced", informer.synced());
            detail.put("watching", informer.watching());
            detail.put("cached", informer.cached());
            detail.put("resourceVersion", informer.resourceVersion());
            if (informer.lastError() != null) {
                detail.put("lastError", informer.lastError());
            }
            details.put(informer.name(), detail);
        }
        return (up ? Health.up() : Health.down()).withDetails(details).build();
    }
}
