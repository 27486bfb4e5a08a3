package dev.operatorstarter.autoconfigure.webhook;

import dev.operatorstarter.autoconfigure.Widget;
import dev.operatorstarter.webhook.Admission;
import dev.operatorstarter.webhook.AdmissionVerdict;
import dev.operatorstarter.webhook.ValidatingHandler;

/** Refuses invisible widgets, and warns about red ones. */
@AdmissionWebhook(path = "/validate-widgets")
public class WidgetValidator implements ValidatingHandler<Widget> {

    @Override
    public AdmissionVerdict validate(Admission<Widget> admission) {
        Object colour = admission.subject().getSpec().get("colour");
        if ("invisible".equals(colour)) {
            return AdmissionVerdict.deny("a widget cannot be invisible (" + admission.operation() + " by "
                    + admission.userInfo().getUsername() + ")");
        }
        AdmissionVerdict allowed = AdmissionVerdict.allow();
        return "red".equals(colour) ? allowed.withWarning("red widgets fade") : allowed;
    }
}
