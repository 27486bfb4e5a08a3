package dev.operatorstarter.client;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Endpoints;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.PersistentVolume;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceAccount;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apps.DaemonSet;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.ReplicaSet;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.api.model.batch.v1.CronJob;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.api.model.events.v1.Event;
import io.fabric8.kubernetes.api.model.networking.v1.Ingress;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import io.fabric8.kubernetes.api.model.rbac.ClusterRole;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBinding;
import io.fabric8.kubernetes.api.model.rbac.Role;
import io.fabric8.kubernetes.api.model.rbac.RoleBinding;

/**
 * client-go's clientset, as named shortcuts to {@link KubernetesClient#resources(Class)}: every
 * method is one line, so there is exactly one implementation of the verbs. Any other model class
 * (and any custom resource class) works with {@code resources(Class)} directly.
 */
public final class Clientset {

    private Clientset() {
    }

    /** {@code core/v1}. */
    @FunctionalInterface
    public interface CoreV1 {
        KubernetesClient client();

        default ResourceClient<Pod> pods() {
            return client().resources(Pod.class);
        }

        default ResourceClient<Service> services() {
            return client().resources(Service.class);
        }

        default ResourceClient<ConfigMap> configMaps() {
            return client().resources(ConfigMap.class);
        }

        default ResourceClient<Secret> secrets() {
            return client().resources(Secret.class);
        }

        default ResourceClient<ServiceAccount> serviceAccounts() {
            return client().resources(ServiceAccount.class);
        }

        default ResourceClient<Namespace> namespaces() {
            return client().resources(Namespace.class);
        }

        default ResourceClient<Node> nodes() {
            return client().resources(Node.class);
        }

        default ResourceClient<PersistentVolumeClaim> persistentVolumeClaims() {
            return client().resources(PersistentVolumeClaim.class);
        }

        default ResourceClient<PersistentVolume> persistentVolumes() {
            return client().resources(PersistentVolume.class);
        }

        default ResourceClient<Endpoints> endpoints() {
            return client().resources(Endpoints.class);
        }
    }

    /** {@code apps/v1}. */
    @FunctionalInterface
    public interface AppsV1 {
        KubernetesClient client();

        default ResourceClient<Deployment> deployments() {
            return client().resources(Deployment.class);
        }

        default ResourceClient<StatefulSet> statefulSets() {
            return client().resources(StatefulSet.class);
        }

        default ResourceClient<DaemonSet> daemonSets() {
            return client().resources(DaemonSet.class);
        }

        default ResourceClient<ReplicaSet> replicaSets() {
            return client().resources(ReplicaSet.class);
        }
    }

    /** {@code batch/v1}. */
    @FunctionalInterface
    public interface BatchV1 {
        KubernetesClient client();

        default ResourceClient<Job> jobs() {
            return client().resources(Job.class);
        }

        default ResourceClient<CronJob> cronJobs() {
            return client().resources(CronJob.class);
        }
    }

    /** {@code coordination.k8s.io/v1}. */
    @FunctionalInterface
    public interface CoordinationV1 {
        KubernetesClient client();

        default ResourceClient<Lease> leases() {
            return client().resources(Lease.class);
        }
    }

    /** {@code events.k8s.io/v1}. */
    @FunctionalInterface
    public interface EventsV1 {
        KubernetesClient client();

        default ResourceClient<Event> events() {
            return client().resources(Event.class);
        }
    }

    /** {@code rbac.authorization.k8s.io/v1}. */
    @FunctionalInterface
    public interface RbacV1 {
        KubernetesClient client();

        default ResourceClient<Role> roles() {
            return client().resources(Role.class);
        }

        default ResourceClient<RoleBinding> roleBindings() {
            return client().resources(RoleBinding.class);
        }

        default ResourceClient<ClusterRole> clusterRoles() {
            return client().resources(ClusterRole.class);
        }

        default ResourceClient<ClusterRoleBinding> clusterRoleBindings() {
            return client().resources(ClusterRoleBinding.class);
        }
    }

    /** {@code networking.k8s.io/v1}. */
    @FunctionalInterface
    public interface NetworkingV1 {
        KubernetesClient client();

        default ResourceClient<Ingress> ingresses() {
            return client().resources(Ingress.class);
        }

        default ResourceClient<NetworkPolicy> networkPolicies() {
            return client().resources(NetworkPolicy.class);
        }
    }

    /** {@code apiextensions.k8s.io/v1}. */
    @FunctionalInterface
    public interface ApiextensionsV1 {
        KubernetesClient client();

        default ResourceClient<CustomResourceDefinition> customResourceDefinitions() {
            return client().resources(CustomResourceDefinition.class);
        }
    }
}
