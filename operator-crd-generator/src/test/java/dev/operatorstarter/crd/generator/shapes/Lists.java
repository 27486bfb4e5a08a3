package dev.operatorstarter.crd.generator.shapes;

import dev.operatorstarter.client.CustomResource;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Version;
import java.util.Collection;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.SortedSet;

/** Lists, sets, arrays and nested lists; sets of scalars become list-type set. */
@Group(Shapes.GROUP)
@Version("v1")
public class Lists extends CustomResource<Lists.Spec, Void> implements Namespaced {

    public record Spec(List<String> names, String[] aliases, int[] ports, Collection<Long> sizes, Set<String> tags,
            SortedSet<Integer> ordered, EnumSet<Enums.Phase> phases, List<Item> items, Set<Item> uniqueItems,
            List<List<Integer>> matrix) {
    }

    public record Item(String name, int weight) {
    }
}
