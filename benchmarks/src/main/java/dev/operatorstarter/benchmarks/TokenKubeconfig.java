package dev.operatorstarter.benchmarks;

import dev.operatorstarter.client.KubernetesClient;
import dev.operatorstarter.test.ClusterConnection;
import dev.operatorstarter.test.ServiceAccounts;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBindingBuilder;
import java.nio.file.Path;
import java.time.Duration;

/**
 * A kubeconfig with a bearer token of a cluster-admin service account: every subject then
 * authenticates the same simple way (the local server's admin certificate has an EC key, which
 * fabric8 reads only when told).
 */
final class TokenKubeconfig {

    private TokenKubeconfig() {
    }

    static Path write(KubernetesClient admin, ClusterConnection connection, Path file) {
        admin.rbacV1().clusterRoleBindings().create(new ClusterRoleBindingBuilder().withNewMetadata()
                .withName("benchmarks").endMetadata().withNewRoleRef().withApiGroup("rbac.authorization.k8s.io")
                .withKind("ClusterRole").withName("cluster-admin").endRoleRef().addNewSubject()
                .withKind("ServiceAccount").withName("benchmarks").withNamespace("default").endSubject().build());
        return ServiceAccounts.connectAs(connection, "default", "benchmarks", Duration.ofHours(2), file).kubeconfig();
    }
}
