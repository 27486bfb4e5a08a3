package dev.operatorstarter.webhook;

import dev.operatorstarter.client.CustomResource;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Kind;
import io.fabric8.kubernetes.model.annotation.Version;

/** A third version of the test kind, flat again, for conversions through a hub. */
@Group("webhooks.operatorstarter.dev")
@Version("v2")
@Kind("Gadget")
public class GadgetV2 extends CustomResource<GadgetV2.Spec, Void> implements Namespaced {

    public record Spec(String colour, String finish) {
    }
}
