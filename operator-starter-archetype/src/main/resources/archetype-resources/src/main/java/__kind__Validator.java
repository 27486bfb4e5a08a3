package ${package};

import dev.operatorstarter.autoconfigure.webhook.AdmissionWebhook;
import dev.operatorstarter.webhook.Admission;
import dev.operatorstarter.webhook.AdmissionVerdict;
import dev.operatorstarter.webhook.ValidatingHandler;

/**
 * Refuses a ${kind} whose message is blank, which would leave its ConfigMap saying nothing. The API
 * server calls it before it stores a ${kind} created or updated in the operator's namespace (the
 * chart's ValidatingWebhookConfiguration, chart/templates/webhook-configuration.yaml), over TLS on
 * the operator's webhook port; a denial reaches {@code kubectl} as its message.
 *
 * <p>A CEL rule in the CRD could say this much too: keep webhooks for what the schema and CEL cannot
 * see, such as other objects, the caller, or a system outside the cluster. See Operator Starter's
 * docs/webhooks.md.
 */
@AdmissionWebhook(path = ${kind}Validator.PATH)
public class ${kind}Validator implements ValidatingHandler<${kind}> {

    /** Where the API server calls it: the path in the chart's ValidatingWebhookConfiguration. */
    public static final String PATH = "/validate-${kind.toLowerCase()}s";

    @Override
    public AdmissionVerdict validate(Admission<${kind}> admission) {
        ${kind} resource = admission.object();
        if (resource == null || resource.getSpec() == null) {
            return AdmissionVerdict.allow(); // a DELETE, or a ${kind} the schema refuses anyway
        }
        String message = resource.getSpec().message();
        if (message != null && message.isBlank()) {
            return AdmissionVerdict.deny("the message of a ${kind} must not be blank: its ConfigMap would say nothing");
        }
        return AdmissionVerdict.allow();
    }
}
