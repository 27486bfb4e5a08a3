package dev.operatorstarter.webhook;

import dev.operatorstarter.client.CustomResource;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Kind;
import io.fabric8.kubernetes.model.annotation.Version;
import java.util.List;

/** The second version of the test kind: the colour moved into paint, which also has a finish. */
@Group("webhooks.operatorstarter.dev")
@Version("v1")
@Kind("Gadget")
public class GadgetV1 extends CustomResource<GadgetV1.Spec, Void> implements Namespaced {

    public record Spec(Paint paint, List<String> parts) {
    }

    public record Paint(String colour, String finish) {
    }

    static GadgetV1 painted(String name, String colour, String finish) {
        GadgetV1 gadget = new GadgetV1();
        gadget.getMetadata().setName(name);
        gadget.setSpec(new Spec(new Paint(colour, finish), List.of()));
        return gadget;
    }
}
