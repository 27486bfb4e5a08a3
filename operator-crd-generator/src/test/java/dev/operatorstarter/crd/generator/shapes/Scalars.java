package dev.operatorstarter.crd.generator.shapes;

import dev.operatorstarter.client.CustomResource;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Version;
import java.math.BigDecimal;
import java.math.BigInteger;

/** Java's scalar types, primitive and boxed; none is required. */
@Group(Shapes.GROUP)
@Version("v1")
public class Scalars extends CustomResource<Scalars.Spec, Void> implements Namespaced {

    public record Spec(String text, char letter, boolean flag, Boolean maybeFlag, byte tiny, short small, int count,
            Integer maybeCount, long big, Long maybeBig, float ratio, double precise, Double maybePrecise,
            BigInteger huge, BigDecimal exact, byte[] blob) {
    }
}
