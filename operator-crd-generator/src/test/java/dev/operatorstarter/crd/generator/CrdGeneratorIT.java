package dev.operatorstarter.crd.generator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.operatorstarter.client.CustomResource;
import dev.operatorstarter.client.GroupVersionResource;
import dev.operatorstarter.client.KubernetesClient;
import dev.operatorstarter.client.KubernetesJson;
import dev.operatorstarter.client.PatchOptions;
import dev.operatorstarter.client.ResourceClient;
import dev.operatorstarter.client.ResourceType;
import dev.operatorstarter.client.config.KubeconfigLoader;
import dev.operatorstarter.client.rest.ApiException;
import dev.operatorstarter.crd.generator.shapes.Beans;
import dev.operatorstarter.crd.generator.shapes.CelRules;
import dev.operatorstarter.crd.generator.shapes.ClusterScoped;
import dev.operatorstarter.crd.generator.shapes.Conditions;
import dev.operatorstarter.crd.generator.shapes.Constraints;
import dev.operatorstarter.crd.generator.shapes.Defaults;
import dev.operatorstarter.crd.generator.shapes.Enums;
import dev.operatorstarter.crd.generator.shapes.KubernetesTypes;
import dev.operatorstarter.crd.generator.shapes.ListAndMapTypes;
import dev.operatorstarter.crd.generator.shapes.Lists;
import dev.operatorstarter.crd.generator.shapes.Maps;
import dev.operatorstarter.crd.generator.shapes.Scalars;
import dev.operatorstarter.crd.generator.shapes.Shapes.Shape;
import dev.operatorstarter.crd.generator.shapes.Shapes;
import dev.operatorstarter.crd.generator.shapes.StaticSite;
import dev.operatorstarter.crd.generator.shapes.Times;
import dev.operatorstarter.crd.generator.shapes.Unstructured;
import dev.operatorstarter.crd.generator.shapes.Widgets;
import dev.operatorstarter.test.ClusterConnection;
import dev.operatorstarter.test.Eventually;
import dev.operatorstarter.test.KubernetesTest;
import dev.operatorstarter.test.TestNamespace;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.StatusCause;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.autoscaling.v1.Scale;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.Date;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.FieldSource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The generated CRDs against a real API server: every shape's CRD is accepted and Established;
 * objects that the typed client writes come back unpruned; defaults are applied; invalid objects
 * are refused naming the field; several versions are served with one stored.
 */
@KubernetesTest
class CrdGeneratorIT {

    static final List<Shape> shapes = Shapes.all();

    private static final CrdGenerator GENERATOR = CrdGenerator.create(CrdOptions.defaults());
    private static final Set<String> INSTALLED = ConcurrentHashMap.newKeySet();
    private static KubernetesClient client;

    @BeforeAll
    static void connect(ClusterConnection connection) {
        client = KubernetesClient.create(KubeconfigLoader.load(connection.kubeconfig(), null));
    }

    @AfterAll
    static void close() {
        client.close();
    }

    @ParameterizedTest(name = "{0}")
    @FieldSource("shapes")
    void theApiServerEstablishesTheGeneratedCrd(Shape shape) {
        CustomResourceDefinition stored = install(shape.versions());

        assertThat(stored.getStatus().getConditions())
                .noneMatch(condition -> condition.getType().equals("NonStructuralSchema"))
                .anyMatch(condition -> condition.getType().equals("NamesAccepted")
                        && condition.getStatus().equals("True"));
        assertThat(stored.getStatus().getAcceptedNames().getKind()).isEqualTo(stored.getSpec().getNames().getKind());
    }

    @Test
    void objectsTheTypedClientWritesComeBackWithNothingPruned(TestNamespace namespace) throws Exception {
        roundTrip(namespace, new Scalars(), new Scalars.Spec("text", 'x', true, false, (byte) 1, (short) 2, 3, 4, 5L,
                6L, 1.5f, 2.25, 3.5, new BigInteger("1234567890123"), new BigDecimal("1.125"),
                new byte[] {1, 2, 3}));
        roundTrip(namespace, new Enums(), new Enums.Spec(Enums.Phase.RUNNING, Enums.Protocol.HTTP_1_1,
                Enums.Level.HIGH, List.of(Enums.Phase.DONE, Enums.Phase.PENDING)));
        roundTrip(namespace, new Lists(), new Lists.Spec(List.of("a", "b"), new String[] {"c"}, new int[] {80, 443},
                List.of(1L, 2L), Set.of("x"), new TreeSet<>(Set.of(3, 1)), EnumSet.of(Enums.Phase.DONE),
                List.of(new Lists.Item("i", 1)), Set.of(new Lists.Item("u", 2)), List.of(List.of(1, 2), List.of(3))));
        roundTrip(namespace, new Maps(), new Maps.Spec(Map.of("app", "web"), new TreeMap<>(Map.of("a", 1)),
                Map.of(Enums.Phase.RUNNING, 30L), Map.of("main", new Maps.Endpoint("example.com", 443)),
                Map.of("admins", List.of("ann")), Map.of("feature", Map.of("on", true))));
        // in UTC: the client reads an OffsetDateTime adjusted to UTC, which would not compare equal
        roundTrip(namespace, new Times(), new Times.Spec(Instant.parse("2026-11-26T10:15:30.123456789Z"),
                OffsetDateTime.of(2026, 1, 2, 3, 4, 5, 0, ZoneOffset.UTC),
                ZonedDateTime.of(2026, 1, 2, 3, 4, 5, 0, ZoneOffset.UTC), new Date(0), LocalDate.of(2026, 2, 28),
                LocalDateTime.of(2026, 2, 28, 23, 59), Duration.ofSeconds(90),
                io.fabric8.kubernetes.api.model.Duration.parse("1h30m")));
        ConfigMap configMap = new ConfigMapBuilder().withNewMetadata().withName("embedded").endMetadata()
                .addToData("key", "value").build();
        roundTrip(namespace, new KubernetesTypes(), new KubernetesTypes.Spec(new IntOrString("http"),
                new Quantity("1Gi"), Map.of("cpu", new Quantity("500m")),
                new KubernetesTypes.Template(new ObjectMetaBuilder().withName("pod").withNamespace("ns")
                        .addToLabels("app", "web").addToAnnotations("note", "kept").addToFinalizers("example.com/f")
                        .build(), Map.of("k", "v")),
                configMap, new ContainerBuilder().withName("sidecar").withImage("busybox").withArgs("sleep", "1")
                        .addNewPort().withContainerPort(8080).endPort().withNewResources()
                        .addToLimits("memory", new Quantity("64Mi")).endResources().build()));
        JsonMapper json = KubernetesJson.mapper();
        roundTrip(namespace, new Unstructured(), new Unstructured.Spec(json.valueToTree(Map.of("any", 1)),
                List.of("o", 2), json.createObjectNode().put("free", "form"),
                json.createArrayNode().add(1).add("two"), Map.of("nested", Map.of("deep", List.of(1))),
                List.of(1, "two", Map.of("three", 3)), new Unstructured.Extensible("known"),
                new Unstructured.Settings(2), null, Map.of("apiVersion", "v1", "kind", "ConfigMap",
                        "metadata", Map.of("name", "raw"), "data", Map.of("a", "b"))));
        Beans.Spec spec = new Beans.Spec();
        spec.setName("display");
        spec.setSize(60);
        roundTrip(namespace, new Beans(), spec);
    }

    @Test
    void unknownFieldsArePrunedWhereTheSchemaDoesNotPreserveThem(TestNamespace namespace) {
        install(List.of(Unstructured.class));
        GenericKubernetesResource created = generic(Unstructured.class, namespace).create(object(Unstructured.class,
                "pruning", Map.of("extensible", Map.of("name", "n", "extra", 1),
                        "settings", Map.of("level", 1, "extra", 2),
                        "unknown", "dropped")));

        assertThat(spec(created)).isEqualTo(Map.of("extensible", Map.of("name", "n", "extra", 1),
                "settings", Map.of("level", 1, "extra", 2)));
    }

    @Test
    void aValidObjectIsStoredWithItsDefaultsApplied(TestNamespace namespace) {
        install(List.of(Defaults.class));
        generic(Defaults.class, namespace).create(object(Defaults.class, "defaulted", Map.of()));

        Defaults stored = client.resources(Defaults.class).inNamespace(namespace.name()).get("defaulted");

        assertThat(stored.getSpec()).isEqualTo(new Defaults.Spec(3, 0.5, true, "nginx:1.29", "true",
                Enums.Phase.RUNNING, List.of("a", "b"), Map.of("team", "web"), new Defaults.Limits(100, "64Mi"),
                new IntOrString(8080), new IntOrString("50%"), null));
    }

    /** Our client never writes a null, so the object is sent as text, as kubectl would. */
    @Test
    void aNullAllowedPropertyKeepsItsNullWhereAnotherIsDefaulted(TestNamespace namespace) {
        install(List.of(Defaults.class));
        String json = """
                {"apiVersion": "shapes.operatorstarter.dev/v1", "kind": "Defaults", "metadata": {"name": "nulls"},
                 "spec": {"nickname": null, "image": null}}""";

        GenericKubernetesResource created = client.rest().post().groupVersion(Shapes.GROUP, "v1")
                .namespace(namespace.name()).resource("defaults").body(json).execute(GenericKubernetesResource.class);

        assertThat(spec(created)).containsEntry("nickname", null).containsEntry("image", "nginx:1.29");
    }

    /**
     * One invalid object: the shape, how its valid spec is spoiled, the field the server must name
     * and a part of its message.
     */
    record Invalid(String description, Class<? extends CustomResource<?, ?>> shape, Consumer<Map<String, Object>> spoil,
            String field, String message) {
        @Override
        public String toString() {
            return description;
        }
    }

    static final List<Invalid> invalidObjects = List.of(
            new Invalid("@Max", Constraints.class, spec -> spec.put("replicas", 11), "spec.replicas",
                    "less than or equal to 10"),
            new Invalid("@Min", Constraints.class, spec -> spec.put("replicas", 0), "spec.replicas",
                    "greater than or equal to 1"),
            new Invalid("@Positive", Constraints.class, spec -> spec.put("positive", 0), "spec.positive",
                    "greater than 0"),
            new Invalid("@DecimalMax", Constraints.class, spec -> spec.put("ratio", 1.75), "spec.ratio",
                    "less than or equal to 1.5"),
            new Invalid("@Pattern", Constraints.class, spec -> spec.put("name", "Not_A_Label"), "spec.name",
                    "should match"),
            new Invalid("@Size on a string", Constraints.class, spec -> spec.put("name", "ab"), "spec.name",
                    "at least 3 chars long"),
            new Invalid("@Size on a list", Constraints.class, spec -> spec.put("tags", List.of("1", "2", "3", "4",
                    "5", "6")), "spec.tags", "at most 5 items"),
            new Invalid("@Size on a map", Constraints.class, spec -> spec.put("labels", Map.of()), "spec.labels",
                    "at least 1 properties"),
            new Invalid("@NotNull", Constraints.class, spec -> spec.remove("required"), "spec.required",
                    "Required value"),
            new Invalid("@JsonProperty(required = true)", Constraints.class, spec -> spec.remove("requiredByJackson"),
                    "spec.requiredByJackson", "Required value"),
            new Invalid("@NotEmpty on a list", Constraints.class, spec -> spec.put("notEmptyList", List.of()),
                    "spec.notEmptyList", "at least 1 items"),
            new Invalid("@NotBlank", Constraints.class, spec -> spec.put("notBlank", ""), "spec.notBlank",
                    "at least 1 chars long"),
            new Invalid("an enum", Enums.class, spec -> spec.put("phase", "LATER"), "spec.phase",
                    "Unsupported value: \"LATER\""),
            new Invalid("an enum of integers", Enums.class, spec -> spec.put("level", 5), "spec.level",
                    "Unsupported value: 5"),
            new Invalid("a CEL rule with a field path", CelRules.class, spec -> spec.put("minReplicas", 5),
                    "spec.maxReplicas", "minReplicas must not exceed maxReplicas"),
            new Invalid("a CEL rule with a message expression", CelRules.class, spec -> {
                spec.put("mode", "legacy");
                spec.put("maxReplicas", 2);
            }, "spec", "legacy mode runs one replica"),
            new Invalid("a CEL rule on a map, from the sample", StaticSite.class,
                    spec -> spec.put("content", Map.of("no spaces.html", "x")), "spec.content",
                    "file names may hold only letters, digits"),
            new Invalid("the sample's replicas", StaticSite.class, spec -> spec.put("replicas", 11),
                    "spec.replicas", "less than or equal to 10"),
            new Invalid("a condition's status, with Kubernetes' own bounds", Conditions.class,
                    spec -> firstCondition(spec).put("status", "Maybe"), "spec.conditions[0].status",
                    "Unsupported value: \"Maybe\""),
            new Invalid("a condition's reason", Conditions.class,
                    spec -> firstCondition(spec).put("reason", "not a reason!"), "spec.conditions[0].reason",
                    "should match"),
            new Invalid("a condition without its required message", Conditions.class,
                    spec -> firstCondition(spec).remove("message"), "spec.conditions[0].message", "Required value"),
            new Invalid("a required spec", ClusterScoped.class, spec -> spec.clear(), "spec", "Required value"),
            new Invalid("duplicate keys in a list-type map", ListAndMapTypes.class, spec -> spec.put("ports",
                    List.of(Map.of("name", "http", "number", 80), Map.of("name", "http", "protocol", "TCP",
                            "number", 81))), "spec.ports[1]", "Duplicate value"),
            new Invalid("duplicates in a list-type set", ListAndMapTypes.class,
                    spec -> spec.put("finalizers", List.of("a", "a")), "spec.finalizers[1]", "Duplicate value"));

    @ParameterizedTest(name = "{0}")
    @FieldSource("invalidObjects")
    void anInvalidObjectIsRefusedNamingTheField(Invalid invalid, TestNamespace namespace) {
        install(List.of(invalid.shape()));
        Map<String, Object> spec = validSpec(invalid.shape());
        invalid.spoil().accept(spec);
        GenericKubernetesResource object = object(invalid.shape(), "cel-invalid", spec);
        if (invalid.shape() == ClusterScoped.class && spec.isEmpty()) {
            object.getAdditionalProperties().remove("spec");
        }

        assertThatThrownBy(() -> generic(invalid.shape(), namespace).create(object))
                .isInstanceOfSatisfying(ApiException.Invalid.class, refused -> {
                    assertThat(refused.causes()).extracting(StatusCause::getField).contains(invalid.field());
                    assertThat(refused).hasMessageContaining(invalid.field()).hasMessageContaining(invalid.message());
                });
    }

    @Test
    void theValidSpecsOfTheInvalidCasesAreValid(TestNamespace namespace) {
        for (Class<? extends CustomResource<?, ?>> shape : List.<Class<? extends CustomResource<?, ?>>>of(
                Constraints.class, Enums.class, CelRules.class, StaticSite.class, ListAndMapTypes.class,
                Conditions.class)) {
            install(List.of(shape));
            generic(shape, namespace).create(object(shape, "cel-valid", validSpec(shape)));
        }
    }

    @Test
    void aRuleOnTheResourceClassChecksTheWholeObject(TestNamespace namespace) {
        install(List.of(CelRules.class));

        assertThatThrownBy(() -> generic(CelRules.class, namespace).create(object(CelRules.class, "other-name",
                validSpec(CelRules.class))))
                .isInstanceOf(ApiException.Invalid.class).hasMessageContaining("names start with cel-");
    }

    @Test
    void aTransitionRuleRefusesAChangeOfAnImmutableField(TestNamespace namespace) {
        install(List.of(CelRules.class));
        ResourceClient<GenericKubernetesResource> rules = generic(CelRules.class, namespace);
        rules.create(object(CelRules.class, "cel-immutable", validSpec(CelRules.class)));

        assertThatThrownBy(() -> rules.patch("cel-immutable", dev.operatorstarter.client.rest.PatchType.MERGE,
                Map.of("spec", Map.of("mode", "other"))))
                .isInstanceOfSatisfying(ApiException.Invalid.class, refused -> {
                    assertThat(refused.causes()).anySatisfy(cause -> {
                        assertThat(cause.getField()).isEqualTo("spec.mode");
                        assertThat(cause.getReason()).isEqualTo("FieldValueForbidden");
                    });
                    assertThat(refused).hasMessageContaining("mode is immutable");
                });
    }

    @Test
    void severalVersionsAreServedAndOneIsStored(TestNamespace namespace) {
        CustomResourceDefinition crd = install(List.of(Widgets.V1.class, Widgets.V1beta1.class,
                Widgets.V1alpha1.class));
        Widgets.V1 widget = new Widgets.V1();
        widget.getMetadata().setName("w");
        widget.setSpec(new Widgets.V1.Spec(2, "blue"));
        client.resources(Widgets.V1.class).inNamespace(namespace.name()).create(widget);

        GenericKubernetesResource asBeta = client.resources(ResourceType.generic(
                new GroupVersionResource(Shapes.GROUP, "v1beta1", "widgets"), "Widget", true))
                .inNamespace(namespace.name()).get("w");

        assertThat(asBeta.getApiVersion()).isEqualTo(Shapes.GROUP + "/v1beta1");
        assertThat(crd.getSpec().getConversion().getStrategy()).isEqualTo("None");
        assertThat(crd.getStatus().getStoredVersions()).containsExactly("v1");
        assertThat(crd.getSpec().getVersions()).extracting(version -> version.getName() + " served="
                + version.getServed() + " storage=" + version.getStorage())
                .containsExactly("v1 served=true storage=true", "v1beta1 served=true storage=false",
                        "v1alpha1 served=false storage=false");
        assertThatThrownBy(() -> client.resources(ResourceType.generic(
                new GroupVersionResource(Shapes.GROUP, "v1alpha1", "widgets"), "Widget", true))
                .inNamespace(namespace.name()).get("w")).isInstanceOf(ApiException.NotFound.class);
    }

    @Test
    void theScaleSubresourceReadsAndWritesTheReplicasPaths() {
        install(List.of(ClusterScoped.class));
        ResourceClient<ClusterScoped> fleets = client.resources(ClusterScoped.class);
        ClusterScoped fleet = new ClusterScoped();
        fleet.getMetadata().setName("scaled-" + System.nanoTime());
        fleet.setSpec(new ClusterScoped.Spec(2, false));
        fleets.create(fleet);
        String name = fleet.getMetadata().getName();
        try {
            Scale scale = fleets.getScale(name);
            assertThat(scale.getSpec().getReplicas()).isEqualTo(2);

            scale.getSpec().setReplicas(5);
            fleets.updateScale(name, scale);

            assertThat(fleets.get(name).getSpec().replicas()).isEqualTo(5);
        } finally {
            fleets.delete(name);
        }
    }

    // Helpers

    /** Applies the CRD of these classes (once per JVM) and returns it as the server has it once Established. */
    private static CustomResourceDefinition install(List<Class<? extends CustomResource<?, ?>>> versions) {
        CustomResourceDefinition crd = GENERATOR.generate(versions);
        String name = crd.getMetadata().getName();
        ResourceClient<CustomResourceDefinition> crds = client.apiextensionsV1().customResourceDefinitions();
        if (!INSTALLED.contains(name)) {
            crds.apply(crd, PatchOptions.forceApply("crd-generator-it"));
            INSTALLED.add(name);
        }
        return Eventually.await(name + " to be Established", java.time.Duration.ofSeconds(30), () -> crds.get(name),
                stored -> stored.getStatus() != null && stored.getStatus().getConditions().stream()
                        .anyMatch(c -> c.getType().equals("Established") && c.getStatus().equals("True")));
    }

    private static <S> void roundTrip(TestNamespace namespace, CustomResource<S, ?> object, S spec) {
        @SuppressWarnings("unchecked")
        Class<? extends CustomResource<S, ?>> type = (Class<? extends CustomResource<S, ?>>) object.getClass();
        install(List.of(type));
        object.getMetadata().setName("round-trip");
        object.setSpec(spec);
        JsonNode written = asJson(object).get("spec");

        roundTripClient(type, namespace).create(object);
        JsonNode read = asJson(roundTripClient(type, namespace).get("round-trip")).get("spec");

        assertThat(read).as(type.getSimpleName()).isEqualTo(written);
    }

    /** The JSON the client writes, read back as a tree (so that 1.5f and 1.5 compare equal, as on the wire). */
    private static JsonNode asJson(Object object) {
        return KubernetesJson.mapper().readTree(KubernetesJson.mapper().writeValueAsString(object));
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static ResourceClient<CustomResource<?, ?>> roundTripClient(Class<?> type, TestNamespace namespace) {
        return client.resources((Class) type).inNamespace(namespace.name());
    }

    private static ResourceClient<GenericKubernetesResource> generic(Class<? extends CustomResource<?, ?>> shape,
            TestNamespace namespace) {
        ResourceType<?> type = ResourceType.of(shape);
        ResourceClient<GenericKubernetesResource> resources = client.resources(ResourceType.generic(
                type.groupVersionResource(), type.kind(), type.namespaced()));
        return type.namespaced() ? resources.inNamespace(namespace.name()) : resources;
    }

    private static GenericKubernetesResource object(Class<? extends CustomResource<?, ?>> shape, String name,
            Map<String, Object> spec) {
        ResourceType<?> type = ResourceType.of(shape);
        GenericKubernetesResource object = new GenericKubernetesResource();
        object.setApiVersion(type.apiVersion());
        object.setKind(type.kind());
        object.setMetadata(new ObjectMetaBuilder().withName(type.namespaced() ? name : name + "-" + System.nanoTime())
                .build());
        object.setAdditionalProperty("spec", spec);
        return object;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> spec(GenericKubernetesResource object) {
        return (Map<String, Object>) object.getAdditionalProperties().get("spec");
    }

    /** A spec that each shape with invalid cases accepts, to spoil one field at a time. */
    @SuppressWarnings("unchecked")
    private static Map<String, Object> firstCondition(Map<String, Object> spec) {
        return ((List<Map<String, Object>>) spec.get("conditions")).get(0);
    }

    private static Map<String, Object> validSpec(Class<?> shape) {
        Map<String, Object> spec = new LinkedHashMap<>();
        if (shape == Constraints.class) {
            spec.putAll(Map.of("replicas", 5, "ratio", 0.5, "positive", 1, "negative", -1, "strictest", 3,
                    "name", "a-name", "tags", List.of("a"), "labels", Map.of("a", "b"), "required", "r",
                    "requiredByJackson", "j"));
            spec.putAll(Map.of("notEmpty", "e", "notEmptyList", List.of("l"), "notEmptyMap", Map.of("m", "n"),
                    "notBlank", "b", "optionalCount", 1));
        } else if (shape == Enums.class) {
            spec.putAll(Map.of("phase", "RUNNING", "protocol", "h2", "level", 10));
        } else if (shape == CelRules.class) {
            spec.putAll(Map.of("minReplicas", 1, "maxReplicas", 3, "mode", "normal", "tags", List.of("t")));
        } else if (shape == StaticSite.class) {
            spec.putAll(Map.of("content", Map.of("index.html", "<h1>hi</h1>"), "replicas", 1));
        } else if (shape == ClusterScoped.class) {
            spec.putAll(Map.of("replicas", 1));
        } else if (shape == Conditions.class) {
            spec.put("conditions", List.of(new LinkedHashMap<>(Map.of("type", "Ready", "status", "True",
                    "reason", "Available", "message", "all good", "lastTransitionTime", "2026-11-26T01:00:00Z"))));
        } else if (shape == ListAndMapTypes.class) {
            spec.put("ports", new ArrayList<>(List.of(Map.of("name", "http", "number", 80))));
            spec.put("finalizers", List.of("a", "b"));
        }
        return spec;
    }
}
