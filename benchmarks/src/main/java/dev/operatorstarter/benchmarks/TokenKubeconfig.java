package dev.operatorstarter.benchmarks;

import dev.operatorstarter.client.KubernetesClient;
import dev.operatorstarter.test.ClusterConnection;
import io.fabric8.kubernetes.api.model.ServiceAccountBuilder;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBindingBuilder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.Map;

/**
 * A kubeconfig with a bearer token of a cluster-admin service account: every subject then
 * authenticates the same simple way (the local server's admin certificate has an EC key, which
 * fabric8 reads only when told).
 */
final class TokenKubeconfig {

    private TokenKubeconfig() {
    }

    static Path write(KubernetesClient admin, ClusterConnection connection, Path file) throws Exception {
        admin.coreV1().serviceAccounts().inNamespace("default").create(new ServiceAccountBuilder().withNewMetadata()
                .withName("benchmarks").endMetadata().build());
        admin.rbacV1().clusterRoleBindings().create(new ClusterRoleBindingBuilder().withNewMetadata()
                .withName("benchmarks").endMetadata().withNewRoleRef().withApiGroup("rbac.authorization.k8s.io")
                .withKind("ClusterRole").withName("cluster-admin").endRoleRef().addNewSubject()
                .withKind("ServiceAccount").withName("benchmarks").withNamespace("default").endSubject().build());
        String token = admin.rest().post().groupVersion("", "v1").namespace("default").resource("serviceaccounts")
                .name("benchmarks").subresource("token")
                .body(Map.of("apiVersion", "authentication.k8s.io/v1", "kind", "TokenRequest",
                        "spec", Map.of("expirationSeconds", 7200)))
                .execute(tools.jackson.databind.JsonNode.class).path("status").path("token").asString();
        return Files.writeString(file, "apiVersion: v1\nkind: Config\ncurrent-context: bench\n"
                + "clusters: [{name: bench, cluster: {server: \"" + connection.server() + "\", certificate-authority-data: "
                + Base64.getEncoder().encodeToString(connection.certificateAuthorityPem().getBytes(StandardCharsets.UTF_8))
                + "}}]\ncontexts: [{name: bench, context: {cluster: bench, user: bench}}]\n"
                + "users: [{name: bench, user: {token: " + token + "}}]\n");
    }
}
