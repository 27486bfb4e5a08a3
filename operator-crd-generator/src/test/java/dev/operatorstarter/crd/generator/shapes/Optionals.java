package dev.operatorstarter.crd.generator.shapes;

import dev.operatorstarter.client.CustomResource;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Version;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import java.util.OptionalLong;

/** {@code Optional}s: the schema of what they hold. */
@Group(Shapes.GROUP)
@Version("v1")
public class Optionals extends CustomResource<Optionals.Spec, Void> implements Namespaced {

    public record Spec(Optional<String> nickname, OptionalInt retries, OptionalLong budget, OptionalDouble ratio,
            Optional<Owner> owner, Optional<List<String>> aliases) {
    }

    public record Owner(String name) {
    }
}
