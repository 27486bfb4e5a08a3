package dev.operatorstarter.crd.generator;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;
import dev.operatorstarter.client.CustomResource;
import dev.operatorstarter.crd.Default;
import dev.operatorstarter.crd.ListMapKeys;
import dev.operatorstarter.crd.ListType;
import dev.operatorstarter.crd.ValidationRule;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Kind;
import io.fabric8.kubernetes.model.annotation.Version;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import tools.jackson.core.JsonGenerator;
import tools.jackson.databind.SerializationContext;
import tools.jackson.databind.annotation.JsonSerialize;
import tools.jackson.databind.ser.std.StdSerializer;

/** Classes that cannot become a CRD are refused with a message naming the class and the property path. */
class CrdGeneratorErrorsTest {

    private static final String GROUP = "errors.operatorstarter.dev";

    private final CrdGenerator generator = CrdGenerator.create(CrdOptions.defaults());

    @Test
    void aTypeThatContainsItselfIsRefusedAtThePathWhereItComesBack() {
        assertThatThrownBy(() -> generator.generate(Forest.class))
                .isInstanceOf(CrdGenerationException.class)
                .hasMessageStartingWith(Forest.class.getName() + " spec.trees{}.children[]: refers back to "
                        + Tree.class.getName() + ", which encloses it at spec.trees{}")
                .hasMessageContaining("recursive type")
                .hasMessageContaining("@SchemaFrom(ObjectNode.class)");
    }

    @Test
    void aCycleThroughSeveralTypesIsRefusedToo() {
        assertThatThrownBy(() -> generator.generate(PingPong.class))
                .isInstanceOf(CrdGenerationException.class)
                .hasMessageStartingWith(PingPong.class.getName() + " spec.ping.pong.ping: refers back to "
                        + Ping.class.getName() + ", which encloses it at spec.ping");
    }

    @Test
    void twoStorageVersionsAreRefusedNamingBothClasses() {
        assertThatThrownBy(() -> generator.generate(List.of(ThingV1.class, ThingV2StoredToo.class)))
                .isInstanceOf(CrdGenerationException.class)
                .hasMessageContaining(ThingV2StoredToo.class.getName() + " (v2), " + ThingV1.class.getName() + " (v1)")
                .hasMessageContaining("are all storage versions")
                .hasMessageContaining("storage = false");
    }

    @Test
    void versionsWithoutAStorageVersionAreRefused() {
        assertThatThrownBy(() -> generator.generate(List.of(ThingV1beta1.class, ThingV1alpha1.class)))
                .isInstanceOf(CrdGenerationException.class)
                .hasMessageContaining("none of " + ThingV1beta1.class.getName() + " (v1beta1), "
                        + ThingV1alpha1.class.getName() + " (v1alpha1) is the storage version");
    }

    @Test
    void classesOfDifferentKindsAreRefused() {
        assertThatThrownBy(() -> generator.generate(List.of(ThingV1.class, OtherKindV2.class)))
                .isInstanceOf(CrdGenerationException.class)
                .hasMessageContaining(OtherKindV2.class.getName() + " and " + ThingV1.class.getName()
                        + " disagree on the kind (Other and Thing)");
    }

    @Test
    void classesOfDifferentScopesAreRefused() {
        assertThatThrownBy(() -> generator.generate(List.of(ThingV1.class, ClusterThingV2.class)))
                .isInstanceOf(CrdGenerationException.class)
                .hasMessageContaining("disagree on the scope (Cluster and Namespaced)");
    }

    @Test
    void twoClassesOfOneVersionAreRefused() {
        assertThatThrownBy(() -> generator.generate(List.of(ThingV1.class, ThingV1Again.class)))
                .isInstanceOf(CrdGenerationException.class)
                .hasMessageContaining("version v1 has more than one class");
    }

    @Test
    void aMapWithKeysThatAreNotStringsIsRefused() {
        assertThatThrownBy(() -> generator.generate(IntegerKeys.class))
                .isInstanceOf(CrdGenerationException.class)
                .hasMessageStartingWith(IntegerKeys.class.getName() + " spec.byPort: a map's keys must be strings "
                        + "or enums")
                .hasMessageContaining("java.lang.Integer");
    }

    @Test
    void aConstraintOnAValueItCannotApplyToIsRefused() {
        assertThatThrownBy(() -> generator.generate(MisplacedSize.class))
                .isInstanceOf(CrdGenerationException.class)
                .hasMessage(MisplacedSize.class.getName() + " spec.count: @Size applies to strings, collections, "
                        + "arrays and maps, not to a value of type integer");
        assertThatThrownBy(() -> generator.generate(MisplacedPattern.class))
                .isInstanceOf(CrdGenerationException.class)
                .hasMessageContaining("spec.count: @Pattern applies to strings");
    }

    @Test
    void aDefaultThatIsNotJsonOrNotOfThePropertysTypeIsRefused() {
        assertThatThrownBy(() -> generator.generate(BadDefaults.class))
                .isInstanceOf(CrdGenerationException.class)
                .hasMessageContaining(BadDefaults.class.getName() + " spec.")
                .hasMessageContaining("@Default(");
        assertThatThrownBy(() -> generator.generate(DefaultOfTheWrongType.class))
                .isInstanceOf(CrdGenerationException.class)
                .hasMessage(DefaultOfTheWrongType.class.getName() + " spec.replicas: @Default(\"\\\"three\\\"\") is "
                        + "not a value of type integer");
        assertThatThrownBy(() -> generator.generate(DefaultNotAConstant.class))
                .isInstanceOf(CrdGenerationException.class)
                .hasMessageContaining("spec.phase: @Default(\"LATER\") is not one of [\"NOW\", \"SOON\"]");
    }

    @Test
    void listMapKeysMustBePropertiesOfTheItemsThatAnItemCannotLack() {
        assertThatThrownBy(() -> generator.generate(UnknownListMapKey.class))
                .isInstanceOf(CrdGenerationException.class)
                .hasMessageContaining("spec.ports: @ListMapKeys names \"id\", which the items do not have");
        assertThatThrownBy(() -> generator.generate(OptionalListMapKey.class))
                .isInstanceOf(CrdGenerationException.class)
                .hasMessageContaining("spec.ports: list-map key \"name\" must be required or have a @Default");
        assertThatThrownBy(() -> generator.generate(SetOfObjects.class))
                .isInstanceOf(CrdGenerationException.class)
                .hasMessageContaining("spec.ports: @ListType(SET) needs items that are strings, numbers or booleans");
    }

    @Test
    void aValidationRuleWithAnUnknownReasonIsRefused() {
        assertThatThrownBy(() -> generator.generate(BadReason.class))
                .isInstanceOf(CrdGenerationException.class)
                .hasMessageContaining("spec.name: @ValidationRule reason \"Wrong\" is not one of [FieldValueDuplicate");
    }

    @Test
    void aPolymorphicTypeIsRefused() {
        assertThatThrownBy(() -> generator.generate(Polymorphic.class))
                .isInstanceOf(CrdGenerationException.class)
                .hasMessageContaining("spec.shape: " + Shape.class.getName() + " is polymorphic");
    }

    @Test
    void aTypeWithASerializerThatDoesNotSayWhatItWritesIsRefused() {
        assertThatThrownBy(() -> generator.generate(Opaque.class))
                .isInstanceOf(CrdGenerationException.class)
                .hasMessageContaining("spec.secret: " + Secret.class.getName() + " is written by "
                        + SecretSerializer.class.getName() + ", which does not say what JSON it writes: describe it "
                        + "with @SchemaFrom");
    }

    @Test
    void aClassWithoutVersionOrGroupIsRefused() {
        assertThatThrownBy(() -> generator.generate(NoVersion.class))
                .isInstanceOf(CrdGenerationException.class)
                .hasMessageContaining(NoVersion.class.getName() + " has no @Version");
        assertThatThrownBy(() -> generator.generate(NoGroup.class))
                .isInstanceOf(CrdGenerationException.class)
                .hasMessageContaining(NoGroup.class.getName() + " has no @Group");
    }

    @Test
    void noClassesAtAllIsAnIllegalArgument() {
        assertThatThrownBy(() -> generator.generate(List.of()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("versions is empty");
    }

    // The classes: a recursive tree under a map, a two-type cycle.

    @Group(GROUP) @Version("v1")
    static class Forest extends CustomResource<Forest.Spec, Void> implements Namespaced {
        record Spec(Map<String, Tree> trees) {
        }
    }

    record Tree(String name, List<Tree> children) {
    }

    @Group(GROUP) @Version("v1")
    static class PingPong extends CustomResource<PingPong.Spec, Void> implements Namespaced {
        record Spec(Ping ping) {
        }
    }

    record Ping(Pong pong) {
    }

    record Pong(Ping ping) {
    }

    // Versions of one kind, "Thing", and classes that disagree with them.

    record ThingSpec(String name) {
    }

    @Group(GROUP) @Version("v1") @Kind("Thing")
    static class ThingV1 extends CustomResource<ThingSpec, Void> implements Namespaced {
    }

    @Group(GROUP) @Version("v1") @Kind("Thing")
    static class ThingV1Again extends CustomResource<ThingSpec, Void> implements Namespaced {
    }

    @Group(GROUP) @Version("v2") @Kind("Thing")
    static class ThingV2StoredToo extends CustomResource<ThingSpec, Void> implements Namespaced {
    }

    @Group(GROUP) @Version(value = "v1beta1", storage = false) @Kind("Thing")
    static class ThingV1beta1 extends CustomResource<ThingSpec, Void> implements Namespaced {
    }

    @Group(GROUP) @Version(value = "v1alpha1", storage = false) @Kind("Thing")
    static class ThingV1alpha1 extends CustomResource<ThingSpec, Void> implements Namespaced {
    }

    @Group(GROUP) @Version(value = "v2", storage = false) @Kind("Other")
    static class OtherKindV2 extends CustomResource<ThingSpec, Void> implements Namespaced {
    }

    @Group(GROUP) @Version(value = "v2", storage = false) @Kind("Thing")
    static class ClusterThingV2 extends CustomResource<ThingSpec, Void> {
    }

    // Types, constraints and annotations that do not fit.

    @Group(GROUP) @Version("v1")
    static class IntegerKeys extends CustomResource<IntegerKeys.Spec, Void> implements Namespaced {
        record Spec(Map<Integer, String> byPort) {
        }
    }

    @Group(GROUP) @Version("v1")
    static class MisplacedSize extends CustomResource<MisplacedSize.Spec, Void> implements Namespaced {
        record Spec(@Size(max = 3) int count) {
        }
    }

    @Group(GROUP) @Version("v1")
    static class MisplacedPattern extends CustomResource<MisplacedPattern.Spec, Void> implements Namespaced {
        record Spec(@Pattern(regexp = "[0-9]+") int count) {
        }
    }

    @Group(GROUP) @Version("v1")
    static class BadDefaults extends CustomResource<BadDefaults.Spec, Void> implements Namespaced {
        record Spec(@Default("[unquoted") List<String> tags) {
        }
    }

    @Group(GROUP) @Version("v1")
    static class DefaultOfTheWrongType extends CustomResource<DefaultOfTheWrongType.Spec, Void> implements Namespaced {
        record Spec(@Default("\"three\"") int replicas) {
        }
    }

    enum When {
        NOW, SOON
    }

    @Group(GROUP) @Version("v1")
    static class DefaultNotAConstant extends CustomResource<DefaultNotAConstant.Spec, Void> implements Namespaced {
        record Spec(@Default("LATER") When phase) {
        }
    }

    record Port(String name, int number) {
    }

    @Group(GROUP) @Version("v1")
    static class UnknownListMapKey extends CustomResource<UnknownListMapKey.Spec, Void> implements Namespaced {
        record Spec(@ListMapKeys("id") List<Port> ports) {
        }
    }

    @Group(GROUP) @Version("v1")
    static class OptionalListMapKey extends CustomResource<OptionalListMapKey.Spec, Void> implements Namespaced {
        record Spec(@ListMapKeys("name") List<Port> ports) {
        }
    }

    @Group(GROUP) @Version("v1")
    static class SetOfObjects extends CustomResource<SetOfObjects.Spec, Void> implements Namespaced {
        record Spec(@ListType(ListType.Kind.SET) List<Port> ports) {
        }
    }

    @Group(GROUP) @Version("v1")
    static class BadReason extends CustomResource<BadReason.Spec, Void> implements Namespaced {
        record Spec(@ValidationRule(rule = "self != ''", reason = "Wrong") String name) {
        }
    }

    @JsonTypeInfo(use = JsonTypeInfo.Id.NAME)
    @JsonSubTypes({@JsonSubTypes.Type(value = Circle.class, name = "circle")})
    interface Shape {
    }

    record Circle(int radius) implements Shape {
    }

    @Group(GROUP) @Version("v1")
    static class Polymorphic extends CustomResource<Polymorphic.Spec, Void> implements Namespaced {
        record Spec(Shape shape) {
        }
    }

    @JsonSerialize(using = SecretSerializer.class)
    record Secret(String value) {
    }

    static final class SecretSerializer extends StdSerializer<Secret> {
        SecretSerializer() {
            super(Secret.class);
        }

        @Override
        public void serialize(Secret value, JsonGenerator generator, SerializationContext context) {
            generator.writeString("***");
        }
    }

    @Group(GROUP) @Version("v1")
    static class Opaque extends CustomResource<Opaque.Spec, Void> implements Namespaced {
        record Spec(Secret secret) {
        }
    }

    @Group(GROUP)
    static class NoVersion extends CustomResource<ThingSpec, Void> implements Namespaced {
    }

    @Version("v1")
    static class NoGroup extends CustomResource<ThingSpec, Void> implements Namespaced {
    }
}
