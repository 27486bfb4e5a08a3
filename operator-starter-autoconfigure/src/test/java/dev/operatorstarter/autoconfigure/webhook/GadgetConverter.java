package dev.operatorstarter.autoconfigure.webhook;

import dev.operatorstarter.webhook.Converter;
import java.util.HashMap;
import java.util.Map;

/**
 * Converts gadgets between v1alpha1 and v1. v1alpha1 has no finish, so a v1 gadget read as
 * v1alpha1 keeps its finish in an annotation, and converting back restores it: nothing is lost.
 */
@ConversionWebhook(path = "/convert-gadgets")
public class GadgetConverter implements Converter<GadgetV1alpha1, GadgetV1> {

    static final String FINISH = "webhooks.operatorstarter.dev/finish";

    @Override
    public GadgetV1 convert(GadgetV1alpha1 source) {
        GadgetV1 target = new GadgetV1();
        target.setMetadata(source.getMetadata());
        Map<String, String> annotations = source.getMetadata().getAnnotations();
        String finish = annotations == null ? null : annotations.remove(FINISH);
        target.setSpec(new GadgetV1.Spec(new GadgetV1.Paint(source.getSpec().colour(), finish == null ? "matte" : finish)));
        return target;
    }

    @Override
    public GadgetV1alpha1 convertBack(GadgetV1 source) {
        GadgetV1alpha1 target = new GadgetV1alpha1();
        target.setMetadata(source.getMetadata());
        Map<String, String> annotations = new HashMap<>(source.getMetadata().getAnnotations() == null ? Map.of()
                : source.getMetadata().getAnnotations());
        annotations.put(FINISH, source.getSpec().paint().finish());
        target.getMetadata().setAnnotations(annotations);
        target.setSpec(new GadgetV1alpha1.Spec(source.getSpec().paint().colour()));
        return target;
    }
}
