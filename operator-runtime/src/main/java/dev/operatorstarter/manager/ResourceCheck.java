package dev.operatorstarter.manager;

import dev.operatorstarter.cache.SharedInformerFactory;
import dev.operatorstarter.client.KubernetesClient;
import dev.operatorstarter.client.config.RedactedUri;
import dev.operatorstarter.client.discovery.ResourceLookup;
import dev.operatorstarter.client.discovery.ResourceLookup.NotServed;
import dev.operatorstarter.internal.Poll;
import dev.operatorstarter.manager.ManagerOptions.OnMissingResource;
import dev.operatorstarter.time.TimeSource;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Asks the API server's discovery whether it serves every informer's resource before the informers
 * start (a CRD not installed would keep its informer from ever syncing): one request each, with
 * {@link ManagerOptions#discoveryTimeout()}. With {@link OnMissingResource#FAIL} a resource not
 * served fails the start; with {@code WAIT} the check repeats every {@link #POLL}.
 * A server that could not be asked proves nothing: logged, and the informers start anyway.
 */
final class ResourceCheck {

    private static final Logger log = LoggerFactory.getLogger(Manager.class);

    /** How often a manager waiting for missing resources ({@link OnMissingResource#WAIT}) asks the server again. */
    static final Duration POLL = Duration.ofSeconds(2);

    private final KubernetesClient client;
    private final SharedInformerFactory informers;
    private final ManagerOptions options;
    private volatile List<NotServed> missing = List.of();

    ResourceCheck(KubernetesClient client, SharedInformerFactory informers, ManagerOptions options) {
        this.client = client;
        this.informers = informers;
        this.options = options;
    }

    /** The resources the server did not serve when last asked; empty once all are served (or never checked). */
    List<NotServed> missing() {
        return missing;
    }

    /** With {@code FAIL}: asks once. @throws ResourceNotServedException for any resource not served */
    void check() {
        List<NotServed> notServed = lookUp();
        if (!notServed.isEmpty()) {
            throw new ResourceNotServedException(notServed, server());
        }
    }

    /**
     * With {@code FAIL} as {@link #check()}; with {@code WAIT} asks until all are served, logging each
     * time the cache-sync timeout passes.
     *
     * @return false when {@code open} turned false while waiting
     */
    boolean await(BooleanSupplier open) throws InterruptedException {
        if (options.onMissingResource() == OnMissingResource.FAIL) {
            check();
            return true;
        }
        TimeSource time = options.timeSource();
        while (open.getAsBoolean()) {
            if (Poll.until(() -> !open.getAsBoolean() || lookUp().isEmpty(),
                    time.deadlineAfter(options.cacheSyncTimeout()), time, POLL)) {
                return open.getAsBoolean();
            }
            log.warn("Start-up still waits, after {}, until the API server serves what the informers need: {}",
                    options.cacheSyncTimeout(), describe(missing));
        }
        return false;
    }

    /** Asks the server about every informer's resource; records and returns those it does not serve. */
    private List<NotServed> lookUp() {
        List<NotServed> notServed = new ArrayList<>();
        for (ResourceLookup answer : client.discovery().lookup(informers.resources(), options.discoveryTimeout())) {
            if (answer instanceof NotServed no) {
                notServed.add(no);
            } else if (answer instanceof ResourceLookup.Unanswered unanswered) {
                // not proof of anything: let the informer try, its errors are reported as they come
                log.warn("Could not ask the API server whether it serves {}; starting its informer anyway: {}",
                        answer.resource().groupResource(), unanswered.cause().getMessage());
            }
        }
        List<NotServed> before = missing;
        missing = List.copyOf(notServed);
        if (options.onMissingResource() == OnMissingResource.WAIT && !notServed.isEmpty() && !notServed.equals(before)) {
            log.warn("Start-up waits until the API server serves what the informers need: {}", describe(notServed));
        }
        return notServed;
    }

    private String describe(List<NotServed> notServed) {
        return notServed.stream().map(each -> each.describe(server())).reduce((a, b) -> a + "; " + b).orElse("nothing");
    }

    private String server() {
        return new RedactedUri(client.config().server()).toString(); // printed in messages: no user info
    }
}
