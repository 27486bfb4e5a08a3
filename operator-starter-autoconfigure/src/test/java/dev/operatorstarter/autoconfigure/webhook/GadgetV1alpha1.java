package dev.operatorstarter.autoconfigure.webhook;

import dev.operatorstarter.client.CustomResource;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Kind;
import io.fabric8.kubernetes.model.annotation.Version;

/** The old version of the gadgets of webhooks/gadgets-crd.yaml: a gadget has a colour. */
@Group("webhooks.operatorstarter.dev")
@Version("v1alpha1")
@Kind("Gadget")
public class GadgetV1alpha1 extends CustomResource<GadgetV1alpha1.Spec, Void> implements Namespaced {

    public record Spec(String colour) {
    }

    public static GadgetV1alpha1 coloured(String name, String colour) {
        GadgetV1alpha1 gadget = new GadgetV1alpha1();
        gadget.getMetadata().setName(name);
        gadget.setSpec(new Spec(colour));
        return gadget;
    }
}
