package dev.operatorstarter.manager;

import dev.operatorstarter.client.discovery.ResourceLookup.NotServed;
import java.util.List;
import java.util.stream.Collectors;

/**
 * The API server does not serve a resource the manager's informers need (for a custom resource:
 * its CRD is not installed), so their caches could never sync: thrown by {@link Manager#start()}
 * at once, from the server's discovery, instead of after the cache-sync timeout. Only a conclusive
 * answer raises it; a server that could not be asked does not.
 */
public final class ResourceNotServedException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final transient List<NotServed> missing;
    private final String server;

    /**
     * @param missing the resources the server does not serve (at least one)
     * @param server the API server's URL, for the message
     */
    public ResourceNotServedException(List<NotServed> missing, String server) {
        super(missing.stream().map(each -> each.describe(server)).collect(Collectors.joining("; ")));
        if (missing.isEmpty()) {
            throw new IllegalArgumentException("missing must name at least one resource");
        }
        this.missing = List.copyOf(missing);
        this.server = server;
    }

    /** The resources not served, in the order the informers were made. */
    public List<NotServed> missing() {
        return missing;
    }

    /** The API server's URL. */
    public String server() {
        return server;
    }
}
