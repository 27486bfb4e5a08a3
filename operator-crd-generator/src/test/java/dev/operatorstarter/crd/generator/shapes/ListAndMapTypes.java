package dev.operatorstarter.crd.generator.shapes;

import dev.operatorstarter.client.CustomResource;
import dev.operatorstarter.crd.Default;
import dev.operatorstarter.crd.ListMapKeys;
import dev.operatorstarter.crd.ListType;
import dev.operatorstarter.crd.MapType;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Version;
import jakarta.validation.constraints.NotNull;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** Server-side-apply list and map types. */
@Group(Shapes.GROUP)
@Version("v1")
public class ListAndMapTypes extends CustomResource<ListAndMapTypes.Spec, Void> implements Namespaced {

    public record Spec(
            @ListType(ListType.Kind.ATOMIC) List<String> args,
            @ListType(ListType.Kind.SET) List<String> finalizers,
            @ListType(ListType.Kind.ATOMIC) Set<String> atomicSet,
            @ListMapKeys({"name", "protocol"}) List<Port> ports,
            @MapType(MapType.Kind.ATOMIC) Map<String, String> selector,
            @MapType(MapType.Kind.GRANULAR) Port primary) {
    }

    public record Port(@NotNull String name, @Default("TCP") String protocol, int number) {
    }
}
