package dev.operatorstarter.test.internal;

import tools.jackson.databind.node.ObjectNode;

/**
 * The {@code default} service account that kube-controller-manager's service-account controller
 * creates in every namespace, created by the harness where no controller manager runs.
 */
public final class DefaultServiceAccount {

    private DefaultServiceAccount() {
    }

    /** Creates the {@code default} service account in {@code namespace}; one that exists is left alone. */
    public static void ensure(KubernetesApi api, String namespace) {
        ObjectNode account = KubernetesApi.object().put("apiVersion", "v1").put("kind", "ServiceAccount");
        account.putObject("metadata").put("name", "default");
        KubernetesApi.Response created = api.post("/api/v1/namespaces/" + namespace + "/serviceaccounts", account);
        if (!created.isSuccess() && created.status() != 409) {
            created.orThrow("creating the default service account in namespace " + namespace);
        }
    }
}
