package dev.operatorstarter.client;

import dev.operatorstarter.client.pod.PodStreams;
import io.fabric8.kubernetes.api.model.APIService;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Endpoints;
import io.fabric8.kubernetes.api.model.LimitRange;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.PersistentVolume;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodTemplate;
import io.fabric8.kubernetes.api.model.ReplicationController;
import io.fabric8.kubernetes.api.model.ResourceQuota;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceAccount;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.MutatingAdmissionPolicy;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.MutatingAdmissionPolicyBinding;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.MutatingWebhookConfiguration;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingAdmissionPolicy;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingAdmissionPolicyBinding;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingWebhookConfiguration;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apps.ControllerRevision;
import io.fabric8.kubernetes.api.model.apps.DaemonSet;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.ReplicaSet;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.api.model.authentication.SelfSubjectReview;
import io.fabric8.kubernetes.api.model.authentication.TokenReview;
import io.fabric8.kubernetes.api.model.authorization.v1.LocalSubjectAccessReview;
import io.fabric8.kubernetes.api.model.authorization.v1.SelfSubjectAccessReview;
import io.fabric8.kubernetes.api.model.authorization.v1.SelfSubjectRulesReview;
import io.fabric8.kubernetes.api.model.authorization.v1.SubjectAccessReview;
import io.fabric8.kubernetes.api.model.autoscaling.v2.HorizontalPodAutoscaler;
import io.fabric8.kubernetes.api.model.batch.v1.CronJob;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.certificates.v1.CertificateSigningRequest;
import io.fabric8.kubernetes.api.model.certificates.v1.ClusterTrustBundle;
import io.fabric8.kubernetes.api.model.certificates.v1.PodCertificateRequest;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointSlice;
import io.fabric8.kubernetes.api.model.events.v1.Event;
import io.fabric8.kubernetes.api.model.flowcontrol.v1.FlowSchema;
import io.fabric8.kubernetes.api.model.flowcontrol.v1.PriorityLevelConfiguration;
import io.fabric8.kubernetes.api.model.networking.v1.IPAddress;
import io.fabric8.kubernetes.api.model.networking.v1.Ingress;
import io.fabric8.kubernetes.api.model.networking.v1.IngressClass;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import io.fabric8.kubernetes.api.model.networking.v1.ServiceCIDR;
import io.fabric8.kubernetes.api.model.node.v1.RuntimeClass;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import io.fabric8.kubernetes.api.model.rbac.ClusterRole;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBinding;
import io.fabric8.kubernetes.api.model.rbac.Role;
import io.fabric8.kubernetes.api.model.rbac.RoleBinding;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceClass;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceTaintRule;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimTemplate;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import io.fabric8.kubernetes.api.model.scheduling.v1.PriorityClass;
import io.fabric8.kubernetes.api.model.storage.CSIDriver;
import io.fabric8.kubernetes.api.model.storage.CSINode;
import io.fabric8.kubernetes.api.model.storage.CSIStorageCapacity;
import io.fabric8.kubernetes.api.model.storage.StorageClass;
import io.fabric8.kubernetes.api.model.storage.VolumeAttachment;
import io.fabric8.kubernetes.api.model.storage.VolumeAttributesClass;
import io.fabric8.kubernetes.api.model.storagemigration.v1.StorageVersionMigration;

/**
 * client-go's clientset, as named shortcuts to {@link KubernetesClient#resources(Class)}: one
 * interface per group version that the API server serves by default (Kubernetes v1.37), one
 * accessor per resource, each a one-line delegation, so there is exactly one implementation of
 * the verbs. Any other model class (an alpha or beta version, a custom resource class) works with
 * {@code resources(Class)} directly.
 *
 * <p>The accessors are written one per line, as a table, so that the whole clientset stays short
 * enough to read. {@code BuiltInResourcesIT} asks the server's discovery for every built-in
 * resource and fails when one has neither an accessor here nor a line in docs/client.md saying why
 * not; it also checks each accessor's group, version, plural and scope against the server's.
 */
public final class Clientset {

    private Clientset() {
    }

    /**
     * {@code core/v1}.
     *
     * <p>Not here: {@code bindings} (create-only, the scheduler's; a Pod's {@code binding}
     * subresource does the same) and {@code componentstatuses} (deprecated since v1.19); see
     * docs/client.md. Evicting a Pod: {@link PolicyV1#evictions()}.
     */
    @FunctionalInterface
    public interface CoreV1 {
        KubernetesClient client();

        default ResourceClient<ConfigMap> configMaps() { return client().resources(ConfigMap.class); }
        /** A Pod's log, exec, attach and port-forward. */
        default PodStreams podStreams(String namespace, String name) {
            return PodStreams.of(client().rest(), namespace, name);
        }
        default ResourceClient<Endpoints> endpoints() { return client().resources(Endpoints.class); }
        default ResourceClient<io.fabric8.kubernetes.api.model.Event> events() {
            return client().resources(io.fabric8.kubernetes.api.model.Event.class);
        }
        default ResourceClient<LimitRange> limitRanges() { return client().resources(LimitRange.class); }
        default ResourceClient<Namespace> namespaces() { return client().resources(Namespace.class); }
        default ResourceClient<Node> nodes() { return client().resources(Node.class); }
        default ResourceClient<PersistentVolumeClaim> persistentVolumeClaims() { return client().resources(PersistentVolumeClaim.class); }
        default ResourceClient<PersistentVolume> persistentVolumes() { return client().resources(PersistentVolume.class); }
        default ResourceClient<Pod> pods() { return client().resources(Pod.class); }
        default ResourceClient<PodTemplate> podTemplates() { return client().resources(PodTemplate.class); }
        default ResourceClient<ReplicationController> replicationControllers() { return client().resources(ReplicationController.class); }
        default ResourceClient<ResourceQuota> resourceQuotas() { return client().resources(ResourceQuota.class); }
        default ResourceClient<Secret> secrets() { return client().resources(Secret.class); }
        default ResourceClient<ServiceAccount> serviceAccounts() { return client().resources(ServiceAccount.class); }
        default ResourceClient<Service> services() { return client().resources(Service.class); }
    }

    /** {@code admissionregistration.k8s.io/v1}. */
    @FunctionalInterface
    public interface AdmissionregistrationV1 {
        KubernetesClient client();

        default ResourceClient<MutatingAdmissionPolicy> mutatingAdmissionPolicies() { return client().resources(MutatingAdmissionPolicy.class); }
        default ResourceClient<MutatingAdmissionPolicyBinding> mutatingAdmissionPolicyBindings() { return client().resources(MutatingAdmissionPolicyBinding.class); }
        default ResourceClient<MutatingWebhookConfiguration> mutatingWebhookConfigurations() { return client().resources(MutatingWebhookConfiguration.class); }
        default ResourceClient<ValidatingAdmissionPolicy> validatingAdmissionPolicies() { return client().resources(ValidatingAdmissionPolicy.class); }
        default ResourceClient<ValidatingAdmissionPolicyBinding> validatingAdmissionPolicyBindings() { return client().resources(ValidatingAdmissionPolicyBinding.class); }
        default ResourceClient<ValidatingWebhookConfiguration> validatingWebhookConfigurations() { return client().resources(ValidatingWebhookConfiguration.class); }
    }

    /** {@code apiextensions.k8s.io/v1}. */
    @FunctionalInterface
    public interface ApiextensionsV1 {
        KubernetesClient client();

        default ResourceClient<CustomResourceDefinition> customResourceDefinitions() { return client().resources(CustomResourceDefinition.class); }
    }

    /** {@code apiregistration.k8s.io/v1}. */
    @FunctionalInterface
    public interface ApiregistrationV1 {
        KubernetesClient client();

        default ResourceClient<APIService> apiServices() { return client().resources(APIService.class); }
    }

    /** {@code apps/v1}. */
    @FunctionalInterface
    public interface AppsV1 {
        KubernetesClient client();

        default ResourceClient<ControllerRevision> controllerRevisions() { return client().resources(ControllerRevision.class); }
        default ResourceClient<DaemonSet> daemonSets() { return client().resources(DaemonSet.class); }
        default ResourceClient<Deployment> deployments() { return client().resources(Deployment.class); }
        default ResourceClient<ReplicaSet> replicaSets() { return client().resources(ReplicaSet.class); }
        default ResourceClient<StatefulSet> statefulSets() { return client().resources(StatefulSet.class); }
    }

    /**
     * {@code authentication.k8s.io/v1}.
     *
     * <p>Reviews are create-only: {@code create(review)} answers the review with its status filled
     * in, the server stores nothing, and every other verb is refused (405).
     */
    @FunctionalInterface
    public interface AuthenticationV1 {
        KubernetesClient client();

        default ResourceClient<SelfSubjectReview> selfSubjectReviews() { return client().resources(SelfSubjectReview.class); }
        default ResourceClient<TokenReview> tokenReviews() { return client().resources(TokenReview.class); }
    }

    /**
     * {@code authorization.k8s.io/v1}.
     *
     * <p>Reviews are create-only: {@code create(review)} answers the review with its status filled
     * in, the server stores nothing, and every other verb is refused (405).
     */
    @FunctionalInterface
    public interface AuthorizationV1 {
        KubernetesClient client();

        default ResourceClient<LocalSubjectAccessReview> localSubjectAccessReviews() { return client().resources(LocalSubjectAccessReview.class); }
        default ResourceClient<SelfSubjectAccessReview> selfSubjectAccessReviews() { return client().resources(SelfSubjectAccessReview.class); }
        default ResourceClient<SelfSubjectRulesReview> selfSubjectRulesReviews() { return client().resources(SelfSubjectRulesReview.class); }
        default ResourceClient<SubjectAccessReview> subjectAccessReviews() { return client().resources(SubjectAccessReview.class); }
    }

    /**
     * {@code autoscaling/v1}.
     *
     * <p>The older HorizontalPodAutoscaler (CPU utilization only); {@link AutoscalingV2} is its successor.
     */
    @FunctionalInterface
    public interface AutoscalingV1 {
        KubernetesClient client();

        default ResourceClient<io.fabric8.kubernetes.api.model.autoscaling.v1.HorizontalPodAutoscaler> horizontalPodAutoscalers() {
            return client().resources(io.fabric8.kubernetes.api.model.autoscaling.v1.HorizontalPodAutoscaler.class);
        }
    }

    /** {@code autoscaling/v2}. */
    @FunctionalInterface
    public interface AutoscalingV2 {
        KubernetesClient client();

        default ResourceClient<HorizontalPodAutoscaler> horizontalPodAutoscalers() { return client().resources(HorizontalPodAutoscaler.class); }
    }

    /** {@code batch/v1}. */
    @FunctionalInterface
    public interface BatchV1 {
        KubernetesClient client();

        default ResourceClient<CronJob> cronJobs() { return client().resources(CronJob.class); }
        default ResourceClient<Job> jobs() { return client().resources(Job.class); }
    }

    /** {@code certificates.k8s.io/v1}. */
    @FunctionalInterface
    public interface CertificatesV1 {
        KubernetesClient client();

        default ResourceClient<CertificateSigningRequest> certificateSigningRequests() { return client().resources(CertificateSigningRequest.class); }
        default ResourceClient<ClusterTrustBundle> clusterTrustBundles() { return client().resources(ClusterTrustBundle.class); }
        default ResourceClient<PodCertificateRequest> podCertificateRequests() { return client().resources(PodCertificateRequest.class); }
    }

    /** {@code coordination.k8s.io/v1}. */
    @FunctionalInterface
    public interface CoordinationV1 {
        KubernetesClient client();

        default ResourceClient<Lease> leases() { return client().resources(Lease.class); }
    }

    /** {@code discovery.k8s.io/v1}. */
    @FunctionalInterface
    public interface DiscoveryV1 {
        KubernetesClient client();

        default ResourceClient<EndpointSlice> endpointSlices() { return client().resources(EndpointSlice.class); }
    }

    /** {@code events.k8s.io/v1}. */
    @FunctionalInterface
    public interface EventsV1 {
        KubernetesClient client();

        default ResourceClient<Event> events() { return client().resources(Event.class); }
    }

    /** {@code flowcontrol.apiserver.k8s.io/v1}. */
    @FunctionalInterface
    public interface FlowcontrolV1 {
        KubernetesClient client();

        default ResourceClient<FlowSchema> flowSchemas() { return client().resources(FlowSchema.class); }
        default ResourceClient<PriorityLevelConfiguration> priorityLevelConfigurations() { return client().resources(PriorityLevelConfiguration.class); }
    }

    /** {@code networking.k8s.io/v1}. */
    @FunctionalInterface
    public interface NetworkingV1 {
        KubernetesClient client();

        default ResourceClient<IngressClass> ingressClasses() { return client().resources(IngressClass.class); }
        default ResourceClient<Ingress> ingresses() { return client().resources(Ingress.class); }
        default ResourceClient<IPAddress> ipAddresses() { return client().resources(IPAddress.class); }
        default ResourceClient<NetworkPolicy> networkPolicies() { return client().resources(NetworkPolicy.class); }
        default ResourceClient<ServiceCIDR> serviceCidrs() { return client().resources(ServiceCIDR.class); }
    }

    /** {@code node.k8s.io/v1}. */
    @FunctionalInterface
    public interface NodeV1 {
        KubernetesClient client();

        default ResourceClient<RuntimeClass> runtimeClasses() { return client().resources(RuntimeClass.class); }
    }

    /**
     * {@code policy/v1}.
     *
     * <p>Besides its one resource, the {@code pods/eviction} subresource as {@link Evictions}.
     */
    @FunctionalInterface
    public interface PolicyV1 {
        KubernetesClient client();

        default ResourceClient<PodDisruptionBudget> podDisruptionBudgets() { return client().resources(PodDisruptionBudget.class); }
        default Evictions evictions() { return new RestEvictions(client().rest()); }
    }

    /** {@code rbac.authorization.k8s.io/v1}. */
    @FunctionalInterface
    public interface RbacV1 {
        KubernetesClient client();

        default ResourceClient<ClusterRoleBinding> clusterRoleBindings() { return client().resources(ClusterRoleBinding.class); }
        default ResourceClient<ClusterRole> clusterRoles() { return client().resources(ClusterRole.class); }
        default ResourceClient<RoleBinding> roleBindings() { return client().resources(RoleBinding.class); }
        default ResourceClient<Role> roles() { return client().resources(Role.class); }
    }

    /** {@code resource.k8s.io/v1}. */
    @FunctionalInterface
    public interface ResourceV1 {
        KubernetesClient client();

        default ResourceClient<DeviceClass> deviceClasses() { return client().resources(DeviceClass.class); }
        default ResourceClient<DeviceTaintRule> deviceTaintRules() { return client().resources(DeviceTaintRule.class); }
        default ResourceClient<ResourceClaim> resourceClaims() { return client().resources(ResourceClaim.class); }
        default ResourceClient<ResourceClaimTemplate> resourceClaimTemplates() { return client().resources(ResourceClaimTemplate.class); }
        default ResourceClient<ResourceSlice> resourceSlices() { return client().resources(ResourceSlice.class); }
    }

    /** {@code scheduling.k8s.io/v1}. */
    @FunctionalInterface
    public interface SchedulingV1 {
        KubernetesClient client();

        default ResourceClient<PriorityClass> priorityClasses() { return client().resources(PriorityClass.class); }
    }

    /** {@code storage.k8s.io/v1}. */
    @FunctionalInterface
    public interface StorageV1 {
        KubernetesClient client();

        default ResourceClient<CSIDriver> csiDrivers() { return client().resources(CSIDriver.class); }
        default ResourceClient<CSINode> csiNodes() { return client().resources(CSINode.class); }
        default ResourceClient<CSIStorageCapacity> csiStorageCapacities() { return client().resources(CSIStorageCapacity.class); }
        default ResourceClient<StorageClass> storageClasses() { return client().resources(StorageClass.class); }
        default ResourceClient<VolumeAttachment> volumeAttachments() { return client().resources(VolumeAttachment.class); }
        default ResourceClient<VolumeAttributesClass> volumeAttributesClasses() { return client().resources(VolumeAttributesClass.class); }
    }

    /** {@code storagemigration.k8s.io/v1}. */
    @FunctionalInterface
    public interface StoragemigrationV1 {
        KubernetesClient client();

        default ResourceClient<StorageVersionMigration> storageVersionMigrations() { return client().resources(StorageVersionMigration.class); }
    }
}
