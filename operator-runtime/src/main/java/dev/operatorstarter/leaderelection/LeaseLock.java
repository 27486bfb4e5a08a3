package dev.operatorstarter.leaderelection;

import dev.operatorstarter.client.KubernetesClient;
import dev.operatorstarter.client.ResourceClient;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.api.model.coordination.v1.LeaseBuilder;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * A {@link ResourceLock} on a {@code coordination.k8s.io/v1} Lease, as client-go's {@code LeaseLock}.
 * Immutable apart from the Lease it read last; thread-safe.
 */
public final class LeaseLock implements ResourceLock {

    private final ResourceClient<Lease> leases;
    private final String namespace;
    private final String name;
    private final String identity;
    /** Labels this lock puts on the Lease; see {@link #withLabels}. */
    private final Map<String, String> labels;
    /** The Lease as last read: an update keeps its labels, annotations and owner references. */
    private volatile @Nullable Lease lastRead;

    private LeaseLock(ResourceClient<Lease> leases, String namespace, String name, String identity,
            Map<String, String> labels) {
        this.leases = leases;
        this.namespace = namespace;
        this.name = name;
        this.identity = identity;
        this.labels = labels;
    }

    /**
     * The Lease {@code namespace/name}, for the candidate {@code identity} (unique per replica,
     * typically the pod name).
     */
    public static LeaseLock of(KubernetesClient client, String namespace, String name, String identity) {
        Objects.requireNonNull(client, "client");
        requireText(namespace, "namespace");
        requireText(name, "name");
        requireText(identity, "identity");
        return new LeaseLock(client.coordinationV1().leases().inNamespace(namespace), namespace, name, identity, Map.of());
    }

    /**
     * This lock, putting {@code labels} on the Lease: the Lease is created with them, and every
     * update writes them over the labels the Lease has (so they come back if someone removed or
     * changed them) while keeping the others. An update that cannot start from the Lease as read
     * (another version than the last read) carries these labels only. For a Lease others select by
     * label, such as a ring's member Leases ({@code sharding.operatorstarter.dev/ring=<ring>}).
     *
     * @throws NullPointerException when a key or value is null
     */
    public LeaseLock withLabels(Map<String, String> labels) {
        return new LeaseLock(leases, namespace, name, identity, Map.copyOf(labels));
    }

    private static void requireText(String value, String what) {
        if (value == null || value.isBlank()) {
            throw new IllegalArgumentException("the lease lock needs a " + what);
        }
    }

    @Override
    public Optional<Observed> get(Duration deadline) {
        Optional<Lease> lease = leases.withDeadline(deadline).find(name);
        lease.ifPresent(read -> lastRead = read);
        return lease.map(read -> new Observed(LeaderElectionRecord.of(read.getSpec()),
                read.getMetadata().getResourceVersion()));
    }

    @Override
    public void create(LeaderElectionRecord record, Duration deadline) {
        leases.withDeadline(deadline).create(new LeaseBuilder().withNewMetadata().withNamespace(namespace).withName(name)
                .withLabels(labels.isEmpty() ? null : labels).endMetadata().withSpec(record.toLeaseSpec()).build());
    }

    @Override
    public void update(LeaderElectionRecord record, String version, Duration deadline) {
        Lease read = lastRead;
        Lease next;
        if (read != null && version.equals(read.getMetadata().getResourceVersion())) {
            next = new LeaseBuilder(read).withSpec(record.toLeaseSpec()).build();
            if (!labels.isEmpty()) {
                Map<String, String> merged = read.getMetadata().getLabels() == null ? new HashMap<>()
                        : new HashMap<>(read.getMetadata().getLabels());
                merged.putAll(labels);
                next.getMetadata().setLabels(merged);
            }
        } else {
            next = new LeaseBuilder().withNewMetadata().withNamespace(namespace).withName(name)
                    .withResourceVersion(version).withLabels(labels.isEmpty() ? null : labels).endMetadata()
                    .withSpec(record.toLeaseSpec()).build();
        }
        leases.withDeadline(deadline).update(next);
    }

    @Override
    public String identity() {
        return identity;
    }

    @Override
    public String describe() {
        return "lease " + namespace + "/" + name;
    }

    @Override
    public String toString() {
        return describe() + " as " + identity;
    }
}
