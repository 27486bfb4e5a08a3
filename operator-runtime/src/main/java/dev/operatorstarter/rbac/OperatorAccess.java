package dev.operatorstarter.rbac;

import dev.operatorstarter.client.CustomResource;
import dev.operatorstarter.client.ResourceType;
import io.fabric8.kubernetes.api.model.HasMetadata;
import java.lang.reflect.AnnotatedElement;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The permissions the framework's parts use, derived from what the code declares. One place, so
 * that the RBAC the build writes and the check the operator makes at start-up agree.
 *
 * <ul>
 *   <li>a controller: {@code get, list, watch} on every resource it caches (its primary, what it
 *       owns and what it watches, in full or as metadata); {@code create, patch} on what it owns
 *       (it creates those, and changes them by patch or server-side apply); {@code patch} on its
 *       primary when it has a finalizer (added and removed by merge patch); {@code update, patch}
 *       on the primary's {@code status} subresource when it is a custom resource with a status;
 *       {@code update} on the primary's {@code finalizers} subresource when it owns anything (the
 *       owner references it sets block the owner's deletion, which the API server's
 *       OwnerReferencesPermissionEnforcement admission checks);</li>
 *   <li>{@link #events()}, {@link #leaderElection(String)}, {@link #shardMembers()} and
 *       {@link #sharded}: what the event recorder, the leader elector and sharding write;</li>
 *   <li>{@link #declared(AnnotatedElement)}: what {@link Permission} adds.</li>
 * </ul>
 */
public final class OperatorAccess {

    private static final List<String> CACHE = List.of("get", "list", "watch");

    private OperatorAccess() {
    }

    /**
     * What one controller needs where it reconciles.
     *
     * @param name the controller's name, for the reasons
     * @param primary the resource it reconciles
     * @param finalizer its finalizer, {@code ""} for none
     * @param owned what it owns, cached in full or as metadata
     * @param watched what it watches, cached in full or as metadata
     */
    public static AccessRules controller(String name, Class<? extends HasMetadata> primary, String finalizer,
            Collection<Class<? extends HasMetadata>> owned, Collection<Class<? extends HasMetadata>> watched) {
        List<AccessRule> rules = new ArrayList<>();
        ResourceType<?> main = ResourceType.of(primary);
        String of = " (controller " + name + ")";
        rules.add(rule(main, "", CACHE, "the cache of " + main.plural() + of));
        if (!finalizer.isEmpty()) {
            rules.add(rule(main, "", List.of("patch"), "finalizer " + finalizer + " added and removed" + of));
        }
        if (hasStatus(primary)) {
            rules.add(rule(main, "status", List.of("update", "patch"), "the status the reconciler writes" + of));
        }
        for (Class<? extends HasMetadata> type : owned) {
            ResourceType<?> child = ResourceType.of(type);
            rules.add(rule(child, "", List.of("get", "list", "watch", "create", "patch"),
                    "owned " + child.plural() + ": cached, created and patched" + of));
        }
        if (!owned.isEmpty()) {
            rules.add(rule(main, "finalizers", List.of("update"),
                    "owner references that block the deletion of " + main.plural() + of));
        }
        for (Class<? extends HasMetadata> type : watched) {
            ResourceType<?> other = ResourceType.of(type);
            rules.add(rule(other, "", CACHE, "the cache of watched " + other.plural() + of));
        }
        return AccessRules.of(rules);
    }

    /** What the event recorder writes: {@code events.k8s.io} Events, created and then patched as they repeat. */
    public static AccessRules events() {
        return AccessRules.of(List.of(new AccessRule("events.k8s.io", "events", List.of(), List.of("create", "patch"),
                false, List.of("Events the operator records"))));
    }

    /**
     * What the leader elector needs in the Lease's namespace: {@code create} (a create cannot be
     * limited by name: the Lease does not exist yet when it is authorized), and {@code get, update}
     * on the one Lease it reads, renews, takes over and releases.
     */
    public static AccessRules leaderElection(String leaseName) {
        return AccessRules.of(List.of(
                new AccessRule("coordination.k8s.io", "leases", List.of(), List.of("create"), false,
                        List.of("the leader Lease, created when missing")),
                new AccessRule("coordination.k8s.io", "leases", List.of(leaseName), List.of("get", "update"), false,
                        List.of("the leader Lease, read, renewed and released"))));
    }

    /**
     * What sharding needs in the ring's namespace: the member Leases, named after shard ids made
     * per process, so no names can limit them. Each replica creates, reads and renews its own, all
     * watch the ring's, the assigner takes a dead member's, labels a ready one and deletes an orphan.
     */
    public static AccessRules shardMembers() {
        return AccessRules.of(List.of(new AccessRule("coordination.k8s.io", "leases", List.of(),
                List.of("get", "list", "watch", "create", "update", "patch", "delete"), false,
                List.of("the member Leases of the shard ring"))));
    }

    /** What sharding writes where a sharded controller reconciles: the assignment labels, by merge patch. */
    public static AccessRules sharded(String name, Class<? extends HasMetadata> primary,
            Collection<Class<? extends HasMetadata>> owned) {
        List<AccessRule> rules = new ArrayList<>();
        for (Class<? extends HasMetadata> type : concat(primary, owned)) {
            ResourceType<?> resource = ResourceType.of(type);
            rules.add(rule(resource, "", List.of("patch"), "the shard labels on " + resource.plural()
                    + " (sharded controller " + name + ")"));
        }
        return AccessRules.of(rules);
    }

    /** The {@link Permission}s on {@code element}, a reconciler class or its {@code @Bean} method. */
    public static AccessRules declared(AnnotatedElement element) {
        List<AccessRule> rules = new ArrayList<>();
        String where = element instanceof Class<?> type ? type.getName() : element.toString();
        for (Permission permission : element.getAnnotationsByType(Permission.class)) {
            if (permission.resources().length == 0 || permission.verbs().length == 0) {
                throw new IllegalArgumentException("@Permission on " + where + " needs resources and verbs");
            }
            for (String resource : permission.resources()) {
                if (!resource.equals(resource.toLowerCase(Locale.ROOT)) || resource.isBlank()) {
                    throw new IllegalArgumentException("@Permission on " + where + " names resource '" + resource
                            + "': resources are lower-case plurals as in URLs (jobs, pods/log)");
                }
                rules.add(new AccessRule(permission.group(), resource, Arrays.asList(permission.resourceNames()),
                        Arrays.asList(permission.verbs()), permission.clusterScoped(), List.of("@Permission on "
                                + where)));
            }
        }
        return AccessRules.of(rules);
    }

    private static List<Class<? extends HasMetadata>> concat(Class<? extends HasMetadata> first,
            Collection<Class<? extends HasMetadata>> rest) {
        Set<Class<? extends HasMetadata>> all = new LinkedHashSet<>();
        all.add(first);
        all.addAll(rest);
        return List.copyOf(all);
    }

    private static AccessRule rule(ResourceType<?> type, String subresource, List<String> verbs, String reason) {
        return new AccessRule(type.group(), subresource.isEmpty() ? type.plural() : type.plural() + "/" + subresource,
                List.of(), verbs, !type.namespaced(), List.of(reason));
    }

    /** Whether {@code type} is a custom resource class whose status type is not {@code Void}. */
    static boolean hasStatus(Class<?> type) {
        Type current = type;
        while (current instanceof Class<?> raw && raw != Object.class) {
            Type parent = raw.getGenericSuperclass();
            if (parent instanceof ParameterizedType parameterized && parameterized.getRawType() == CustomResource.class) {
                Type status = parameterized.getActualTypeArguments()[1];
                return !(status instanceof Class<?> statusClass) || statusClass != Void.class;
            }
            current = parent instanceof ParameterizedType parameterized ? parameterized.getRawType() : parent;
        }
        return false;
    }
}
