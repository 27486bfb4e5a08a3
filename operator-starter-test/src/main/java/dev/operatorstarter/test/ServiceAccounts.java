package dev.operatorstarter.test;

import dev.operatorstarter.test.internal.Kubeconfig;
import dev.operatorstarter.test.internal.KubernetesApi;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;
import tools.jackson.databind.node.ObjectNode;

/**
 * Service accounts as identities for RBAC tests: a real token from the TokenRequest API (what the
 * kubelet mounts into a pod), and a kubeconfig that uses it, so a test can run code as an operator
 * in a pod would and see what RBAC allows it.
 */
public final class ServiceAccounts {

    /** The shortest validity the TokenRequest API accepts. */
    public static final Duration MINIMUM_VALIDITY = Duration.ofMinutes(10);

    private ServiceAccounts() {
    }

    /**
     * Connects as service account {@code namespace/name}: creates the account when it does not exist
     * yet (its permissions are whatever is bound to it), requests a token valid for {@code validity},
     * and writes {@code kubeconfig} (owner-only) for the same server, trusting the same CA, with that
     * token and no client certificate.
     *
     * @param admin a connection allowed to create service accounts and tokens in {@code namespace}
     * @return the connection as the service account: {@link ClusterConnection#bearerToken()} is the
     *         token and {@link ClusterConnection#kubeconfig()} the file written
     * @throws IllegalArgumentException if {@code validity} is shorter than {@link #MINIMUM_VALIDITY}
     * @throws RuntimeException naming the request, when the server refuses one
     */
    public static ClusterConnection connectAs(ClusterConnection admin, String namespace, String name, Duration validity,
            Path kubeconfig) {
        Objects.requireNonNull(namespace, "namespace");
        Objects.requireNonNull(name, "name");
        if (validity.compareTo(MINIMUM_VALIDITY) < 0) {
            throw new IllegalArgumentException("validity " + validity + " is shorter than the TokenRequest API's minimum of "
                    + MINIMUM_VALIDITY);
        }
        KubernetesApi api = ClusterAccess.api(admin);
        String accounts = "/api/v1/namespaces/" + namespace + "/serviceaccounts";
        ObjectNode account = KubernetesApi.object().put("apiVersion", "v1").put("kind", "ServiceAccount");
        account.putObject("metadata").put("name", name);
        KubernetesApi.Response created = api.post(accounts, account);
        if (created.status() != 409) { // 409: it exists already
            created.orThrow("creating service account " + namespace + "/" + name);
        }
        ObjectNode request = KubernetesApi.object().put("apiVersion", "authentication.k8s.io/v1").put("kind", "TokenRequest");
        request.putObject("spec").put("expirationSeconds", validity.toSeconds());
        String token = api.post(accounts + "/" + name + "/token", request)
                .orThrow("requesting a token for service account " + namespace + "/" + name)
                .path("status").path("token").asString();
        Kubeconfig.write(kubeconfig, name, admin.server(), admin.certificateAuthorityPem(), null, null, token);
        return new ClusterConnection(admin.server(), admin.certificateAuthorityPem(), null, null, token, kubeconfig);
    }
}
