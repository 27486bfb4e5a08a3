package dev.operatorstarter.autoconfigure.widgets;

import dev.operatorstarter.autoconfigure.Widget;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Version;

/** A custom resource whose CRD a test installs late, to watch an informer go from failing to synced. */
@Group("starter.operatorstarter.dev")
@Version("v1")
public class Sprocket extends Widget {

    public Sprocket() {
        setKind("Sprocket");
    }
}
