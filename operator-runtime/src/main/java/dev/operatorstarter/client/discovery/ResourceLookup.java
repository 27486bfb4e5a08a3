package dev.operatorstarter.client.discovery;

import dev.operatorstarter.client.GroupVersionResource;
import java.util.List;
import java.util.Objects;

/**
 * What the API server said when asked whether it serves one resource
 * ({@link DiscoveryClient#lookup}): it does, it does not, or it could not be asked. A caller that
 * acts on "not served" (failing start-up, say) must never act on {@link Unanswered}: a slow or
 * failing server says nothing about the resource.
 */
public sealed interface ResourceLookup {

    /** The resource asked about. */
    GroupVersionResource resource();

    /** The server serves the resource. */
    record Served(GroupVersionResource resource, ApiResource served) implements ResourceLookup {

        public Served {
            Objects.requireNonNull(resource, "resource");
            Objects.requireNonNull(served, "served");
        }
    }

    /**
     * The server answered and does not serve the resource: its group version is unknown (404), or
     * the group version's list has no such resource. Conclusive: for a custom resource, its CRD is
     * not installed, or does not serve this version ({@code servedInVersions} then names the
     * versions it does serve), or is not established yet.
     *
     * @param groupVersionServed whether the group version exists (with other resources)
     * @param servedInVersions other versions of the group that serve the resource, when the server
     *     said so within the lookup's deadline; empty when none does or it could not be asked
     */
    record NotServed(GroupVersionResource resource, boolean groupVersionServed, List<String> servedInVersions)
            implements ResourceLookup {

        public NotServed {
            Objects.requireNonNull(resource, "resource");
            servedInVersions = List.copyOf(servedInVersions);
        }

        /** {@code greetings.demo.example.com}: the resource with its group, the name of its CRD. */
        public String crdName() {
            return resource.groupResource();
        }

        /**
         * Says it plainly, naming the resource once: {@code the CRD for greetings.demo.example.com is
         * not installed (no resource greetings in demo.example.com/v1 on the API server at https://...)};
         * when other versions serve it, {@code the CRD for greetings.demo.example.com does not serve
         * version v1 (it serves v1alpha1; ...)}; for the core group, which has no CRDs, {@code the API
         * server at ... serves no resource foos in v1}.
         */
        public String describe(String server) {
            if (resource.group().isEmpty()) {
                return "the API server at " + server + " serves no resource " + resource.resource() + " in "
                        + resource.apiVersion();
            }
            String where = "no resource " + resource.resource() + " in " + resource.apiVersion() + " on the API server at "
                    + server;
            if (!servedInVersions.isEmpty()) {
                return "the CRD for " + crdName() + " does not serve version " + resource.version() + " (it serves "
                        + String.join(", ", servedInVersions) + "; " + where + ")";
            }
            return "the CRD for " + crdName() + " is not installed (" + where + ")";
        }
    }

    /**
     * The server could not be asked: the discovery request failed (5xx, a refusal, a broken
     * connection) or outlived its deadline. Says nothing about the resource.
     *
     * @param cause why
     */
    record Unanswered(GroupVersionResource resource, RuntimeException cause) implements ResourceLookup {

        public Unanswered {
            Objects.requireNonNull(resource, "resource");
            Objects.requireNonNull(cause, "cause");
        }
    }
}
