package dev.operatorstarter.autoconfigure.wiring.other;

import dev.operatorstarter.autoconfigure.Widget;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Version;

/** A custom resource with the simple name of a built-in one, for the generated bean names. */
@Group("other.operatorstarter.dev")
@Version("v1")
public class Secret extends Widget {

    public Secret() {
        setKind("Secret");
    }
}
