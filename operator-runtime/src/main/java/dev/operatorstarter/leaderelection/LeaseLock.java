package dev.operatorstarter.leaderelection;

import dev.operatorstarter.client.KubernetesClient;
import dev.operatorstarter.client.ResourceClient;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.api.model.coordination.v1.LeaseBuilder;
import io.fabric8.kubernetes.api.model.coordination.v1.LeaseSpec;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.Objects;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/** A {@link ResourceLock} on a {@code coordination.k8s.io/v1} Lease, as client-go's {@code LeaseLock}. */
public final class LeaseLock implements ResourceLock {

    private final ResourceClient<Lease> leases;
    private final String namespace;
    private final String name;
    private final String identity;
    /** The Lease as last read: an update keeps its labels, annotations and owner references. */
    private volatile @Nullable Lease lastRead;

    private LeaseLock(ResourceClient<Lease> leases, String namespace, String name, String identity) {
        this.leases = leases;
        this.namespace = namespace;
        this.name = name;
        this.identity = identity;
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
        return new LeaseLock(client.coordinationV1().leases().inNamespace(namespace), namespace, name, identity);
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
        return lease.map(read -> new Observed(toRecord(read.getSpec()), read.getMetadata().getResourceVersion()));
    }

    @Override
    public void create(LeaderElectionRecord record, Duration deadline) {
        leases.withDeadline(deadline).create(new LeaseBuilder().withNewMetadata().withNamespace(namespace).withName(name).endMetadata()
                .withSpec(toSpec(record)).build());
    }

    @Override
    public void update(LeaderElectionRecord record, String version, Duration deadline) {
        Lease read = lastRead;
        Lease next = read != null && version.equals(read.getMetadata().getResourceVersion())
                ? new LeaseBuilder(read).withSpec(toSpec(record)).build()
                : new LeaseBuilder().withNewMetadata().withNamespace(namespace).withName(name)
                        .withResourceVersion(version).endMetadata().withSpec(toSpec(record)).build();
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

    private static LeaseSpec toSpec(LeaderElectionRecord record) {
        LeaseSpec spec = new LeaseSpec();
        spec.setHolderIdentity(record.holderIdentity());
        spec.setLeaseDurationSeconds((int) Math.max(1, record.leaseDuration().toSeconds()));
        spec.setAcquireTime(time(record.acquireTime()));
        spec.setRenewTime(time(record.renewTime()));
        spec.setLeaseTransitions(record.leaderTransitions());
        return spec;
    }

    private static LeaderElectionRecord toRecord(@Nullable LeaseSpec spec) {
        if (spec == null) {
            return new LeaderElectionRecord("", Duration.ZERO, null, null, 0);
        }
        return new LeaderElectionRecord(spec.getHolderIdentity(),
                Duration.ofSeconds(spec.getLeaseDurationSeconds() == null ? 0 : spec.getLeaseDurationSeconds()),
                instant(spec.getAcquireTime()), instant(spec.getRenewTime()),
                spec.getLeaseTransitions() == null ? 0 : spec.getLeaseTransitions());
    }

    private static @Nullable ZonedDateTime time(@Nullable Instant instant) {
        return instant == null ? null : ZonedDateTime.ofInstant(instant, ZoneOffset.UTC);
    }

    private static @Nullable Instant instant(@Nullable ZonedDateTime time) {
        return time == null ? null : time.toInstant();
    }

    @Override
    public String toString() {
        return describe() + " as " + identity;
    }
}
