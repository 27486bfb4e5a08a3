package dev.operatorstarter.autoconfigure.webhook;

import dev.operatorstarter.autoconfigure.Widget;
import dev.operatorstarter.webhook.Admission;
import dev.operatorstarter.webhook.MutatingHandler;
import dev.operatorstarter.webhook.Mutation;
import java.util.HashMap;
import java.util.Map;

/** Gives a widget without a colour the default colour, and labels what it defaulted. */
@AdmissionWebhook(path = "/default-widgets")
public class WidgetDefaulter implements MutatingHandler<Widget> {

    static final String DEFAULTED = "webhooks.operatorstarter.dev/defaulted";

    @Override
    public Mutation<Widget> mutate(Admission<Widget> admission) {
        Widget widget = admission.subject();
        if (widget.getSpec().get("colour") == null) {
            widget.getSpec().put("colour", "grey");
            Map<String, String> labels = new HashMap<>(widget.getMetadata().getLabels() == null ? Map.of()
                    : widget.getMetadata().getLabels());
            labels.put(DEFAULTED, "colour");
            widget.getMetadata().setLabels(labels);
        }
        return Mutation.allow(widget);
    }
}
