package dev.operatorstarter.crd.generator.shapes;

import dev.operatorstarter.client.CustomResource;
import java.util.List;

/**
 * The table of Java type shapes that the golden-file test and the API-server test run through:
 * each is one CRD (a name for its golden file, and its classes, one per version).
 */
public final class Shapes {

    /** The API group of every shape but {@link StaticSite}. */
    public static final String GROUP = "shapes.operatorstarter.dev";

    /**
     * One row of the table.
     *
     * @param name the golden file's name, {@code golden/<name>.yaml}
     * @param versions the custom resource classes, one per version
     */
    public record Shape(String name, List<Class<? extends CustomResource<?, ?>>> versions) {
        @Override
        public String toString() {
            return name;
        }
    }

    private Shapes() {
    }

    public static List<Shape> all() {
        return List.of(
                new Shape("scalars", List.of(Scalars.class)),
                new Shape("enums", List.of(Enums.class)),
                new Shape("lists", List.of(Lists.class)),
                new Shape("maps", List.of(Maps.class)),
                new Shape("optionals", List.of(Optionals.class)),
                new Shape("times", List.of(Times.class)),
                new Shape("kubernetes-types", List.of(KubernetesTypes.class)),
                new Shape("conditions", List.of(Conditions.class)),
                new Shape("unstructured", List.of(Unstructured.class)),
                new Shape("constraints", List.of(Constraints.class)),
                new Shape("defaults", List.of(Defaults.class)),
                new Shape("list-and-map-types", List.of(ListAndMapTypes.class)),
                new Shape("cel-rules", List.of(CelRules.class)),
                new Shape("beans", List.of(Beans.class)),
                new Shape("cluster-scoped", List.of(ClusterScoped.class)),
                new Shape("widgets-three-versions", List.of(Widgets.V1beta1.class, Widgets.V1.class,
                        Widgets.V1alpha1.class)),
                new Shape("static-site", List.of(StaticSite.class)));
    }
}
