package dev.operatorstarter.autoconfigure.webhook;

import dev.operatorstarter.webhook.Admission;
import dev.operatorstarter.webhook.AdmissionVerdict;
import dev.operatorstarter.webhook.ValidatingHandler;
import io.fabric8.kubernetes.api.model.ConfigMap;

/** A validating webhook on a built-in kind: a ConfigMap may not hold a key named "forbidden". */
@AdmissionWebhook(path = "/validate-configmaps")
public class ConfigMapGuard implements ValidatingHandler<ConfigMap> {

    @Override
    public AdmissionVerdict validate(Admission<ConfigMap> admission) {
        ConfigMap map = admission.subject();
        return map.getData() != null && map.getData().containsKey("forbidden")
                ? AdmissionVerdict.deny("the key 'forbidden' is forbidden") : AdmissionVerdict.allow();
    }
}
