package dev.operatorstarter.autoconfigure.wiring;

import dev.operatorstarter.autoconfigure.OperatorProperties;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Map;
import java.util.UUID;
import org.jspecify.annotations.Nullable;

/**
 * The leader-election Lease and this replica's identity, after defaults.
 *
 * @param namespace the Lease's namespace
 * @param name the Lease's name
 * @param identity this replica's identity, unique per process
 */
record LeaseSettings(String namespace, String name, String identity) {

    /** Applies the documented defaults of {@link OperatorProperties.LeaderElection}. */
    static LeaseSettings of(OperatorProperties.LeaderElection properties, String clientNamespace,
            @Nullable String applicationName, Map<String, String> environment) {
        String namespace = blankToNull(properties.leaseNamespace());
        String name = blankToNull(properties.leaseName());
        String identity = blankToNull(properties.identity());
        return new LeaseSettings(namespace != null ? namespace : clientNamespace,
                name != null ? name : applicationName == null || applicationName.isBlank() ? "operator-leader"
                        : applicationName + "-leader",
                identity != null ? identity : hostName(environment) + "_" + UUID.randomUUID());
    }

    /** {@code namespace/name}. */
    String lease() {
        return namespace + "/" + name;
    }

    /** The pod name in a cluster ({@code HOSTNAME}), else this machine's host name. */
    static String hostName(Map<String, String> environment) {
        String host = environment.get("HOSTNAME");
        if (host != null && !host.isBlank()) {
            return host; // the pod name in a cluster
        }
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (UnknownHostException e) {
            return "operator";
        }
    }

    private static @Nullable String blankToNull(@Nullable String value) {
        return value == null || value.isBlank() ? null : value.strip();
    }
}
