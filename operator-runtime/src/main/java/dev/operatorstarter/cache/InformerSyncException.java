package dev.operatorstarter.cache;

import dev.operatorstarter.client.rest.ApiErrors;
import dev.operatorstarter.client.rest.ApiException;
import io.fabric8.kubernetes.api.model.StatusDetails;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * Informers did not sync in time: thrown by {@link SharedInformerFactory#waitForCacheSync}, by
 * a controller's start and by the manager's. Keeps, for each informer that had not synced, its
 * reflector's last error as a typed {@link ReflectorException} (whose cause is the client's
 * error, an {@link ApiException} carrying the API's {@code Status} for a refusal), so a caller
 * reads what went wrong from types rather than from the message; {@link #denials()} turns RBAC
 * refusals into the identity, verb, resource and namespace refused.
 */
public final class InformerSyncException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /** The API server names the refused user, verb and namespace only in a 403's message. */
    private static final Pattern FORBIDDEN = Pattern.compile("User \"([^\"]+)\" cannot (\\S+) resource \"[^\"]+\""
            + "(?: in API group \"[^\"]*\")?(?: in the namespace \"([^\"]+)\")?");

    /**
     * An informer that had not synced.
     *
     * @param informer the informer's name
     * @param lastError its reflector's last error; null when it had none (still listing, or an empty wait)
     */
    public record Unsynced(String informer, @Nullable ReflectorException lastError) {

        public Unsynced {
            Objects.requireNonNull(informer, "informer");
        }

        /** The informer's name and state now. */
        public static Unsynced of(SharedIndexInformer<?> informer) {
            return new Unsynced(informer.name(), informer.lastError().orElse(null));
        }

        /** The RBAC refusal behind the last error, if it was one (a 403 of a list or a watch). */
        public Optional<Denial> denial() {
            ApiException.Forbidden forbidden = lastError == null ? null
                    : ApiErrors.cause(lastError, ApiException.Forbidden.class).orElse(null);
            if (forbidden == null) {
                return Optional.empty();
            }
            StatusDetails details = forbidden.status().getDetails();
            String resource = details == null || details.getKind() == null ? "" : details.getKind();
            String group = details == null || details.getGroup() == null ? "" : details.getGroup();
            String message = forbidden.status().getMessage();
            Matcher matcher = FORBIDDEN.matcher(message == null ? "" : message);
            boolean named = matcher.find();
            String identity = named ? matcher.group(1) : "";
            // a streaming list is a watch to the server, so its message names the verb refused; else the failed step does
            String verb = named ? matcher.group(2) : lastError instanceof ReflectorException.ListFailed ? "list" : "watch";
            String namespace = named && matcher.group(3) != null ? matcher.group(3) : "";
            return Optional.of(new Denial(identity, verb, resource, group, namespace));
        }

        /** The last error's message, or "no error yet". */
        public String describeError() {
            return lastError == null ? "no error yet" : String.valueOf(lastError.getMessage());
        }
    }

    /**
     * An RBAC refusal of an informer's list or watch, from the API's 403 {@code Status}.
     *
     * @param identity the user or service account, e.g. {@code system:serviceaccount:ops:operator};
     *     "" when the server's message did not name it
     * @param verb the verb refused: {@code list} or {@code watch} (a streaming list is refused as a watch)
     * @param resource the resource, e.g. {@code configmaps} (the Status's {@code details.kind})
     * @param group the API group, "" for core (the Status's {@code details.group})
     * @param namespace the namespace, or "" at the cluster scope
     */
    public record Denial(String identity, String verb, String resource, String group, String namespace) {
    }

    private final String waiter;
    private final Duration timeout;
    private final List<Unsynced> unsynced;

    /**
     * @param waiter who waited, for the message (e.g. "informers", or a controller's name)
     * @param timeout how long it waited
     * @param unsynced the informers that had not synced
     */
    public InformerSyncException(String waiter, Duration timeout, List<Unsynced> unsynced) {
        super(describe(waiter, timeout, unsynced));
        this.waiter = waiter;
        this.timeout = timeout;
        this.unsynced = List.copyOf(unsynced);
    }

    /** The exception for {@code informers}, those that have not synced now. */
    public static InformerSyncException of(String waiter, Duration timeout,
            Collection<? extends SharedIndexInformer<?>> informers) {
        return new InformerSyncException(waiter, timeout,
                informers.stream().filter(informer -> !informer.hasSynced()).map(Unsynced::of).toList());
    }

    /** Who waited: "informers" for the factory, or a controller's name. */
    public String waiter() {
        return waiter;
    }

    public Duration timeout() {
        return timeout;
    }

    /** The informers that had not synced, in the order they were made. */
    public List<Unsynced> unsynced() {
        return unsynced;
    }

    /** The RBAC refusals among the informers' last errors. */
    public List<Denial> denials() {
        return unsynced.stream().flatMap(each -> each.denial().stream()).toList();
    }

    private static String describe(String waiter, Duration timeout, List<Unsynced> unsynced) {
        StringBuilder text = new StringBuilder(waiter).append(": caches not synced after ").append(timeout);
        for (int i = 0; i < unsynced.size(); i++) {
            Unsynced each = unsynced.get(i);
            text.append(i == 0 ? ": " : "; ").append(each.informer()).append(" (").append(each.describeError())
                    .append(')');
        }
        return text.toString();
    }
}
