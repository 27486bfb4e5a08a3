package dev.operatorstarter.webhook;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

class JsonPatchTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    static Stream<Arguments> diffs() {
        return Stream.of(
                Arguments.of("equal documents", "{\"a\":1,\"b\":[1,2]}", "{\"b\":[1,2],\"a\":1}", "[]"),
                Arguments.of("a new member", "{\"a\":1}", "{\"a\":1,\"b\":{\"c\":true}}",
                        "[{\"op\":\"add\",\"path\":\"/b\",\"value\":{\"c\":true}}]"),
                Arguments.of("a removed member", "{\"a\":1,\"b\":2}", "{\"a\":1}", "[{\"op\":\"remove\",\"path\":\"/b\"}]"),
                Arguments.of("a changed value", "{\"a\":{\"b\":\"x\"}}", "{\"a\":{\"b\":\"y\"}}",
                        "[{\"op\":\"replace\",\"path\":\"/a/b\",\"value\":\"y\"}]"),
                Arguments.of("a value of another type", "{\"a\":{\"b\":1}}", "{\"a\":[1]}",
                        "[{\"op\":\"replace\",\"path\":\"/a\",\"value\":[1]}]"),
                Arguments.of("the whole document", "[1]", "{\"a\":1}", "[{\"op\":\"replace\",\"path\":\"\",\"value\":{\"a\":1}}]"),
                Arguments.of("a name with / and ~", "{}", "{\"a/b~c\":1}",
                        "[{\"op\":\"add\",\"path\":\"/a~1b~0c\",\"value\":1}]"),
                Arguments.of("a label key as Kubernetes writes them", "{\"labels\":{}}",
                        "{\"labels\":{\"example.com/defaulted\":\"true\"}}",
                        "[{\"op\":\"add\",\"path\":\"/labels/example.com~1defaulted\",\"value\":\"true\"}]"),
                Arguments.of("numbers equal by value", "{\"a\":1,\"b\":2.50}", "{\"a\":1.0,\"b\":2.5}", "[]"),
                Arguments.of("an element inserted in the middle", "[1,2,3]", "[1,9,2,3]",
                        "[{\"op\":\"add\",\"path\":\"/1\",\"value\":9}]"),
                Arguments.of("an element removed from the middle", "[1,2,3]", "[1,3]", "[{\"op\":\"remove\",\"path\":\"/1\"}]"),
                Arguments.of("an element appended", "[1,2]", "[1,2,3]", "[{\"op\":\"add\",\"path\":\"/2\",\"value\":3}]"),
                Arguments.of("an element prepended", "[1,2]", "[0,1,2]", "[{\"op\":\"add\",\"path\":\"/0\",\"value\":0}]"),
                Arguments.of("an element changed inside", "[{\"n\":1},{\"n\":2}]", "[{\"n\":1},{\"n\":3}]",
                        "[{\"op\":\"replace\",\"path\":\"/1/n\",\"value\":3}]"),
                Arguments.of("two elements removed from the end", "[1,2,3,4]", "[1,2]",
                        "[{\"op\":\"remove\",\"path\":\"/2\"},{\"op\":\"remove\",\"path\":\"/2\"}]"),
                Arguments.of("an emptied array", "{\"a\":[1,2]}", "{\"a\":[]}",
                        "[{\"op\":\"remove\",\"path\":\"/a/0\"},{\"op\":\"remove\",\"path\":\"/a/0\"}]"),
                Arguments.of("null as a value", "{\"a\":1}", "{\"a\":null}", "[{\"op\":\"replace\",\"path\":\"/a\",\"value\":null}]"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("diffs")
    void theDiffIsTheExpectedPatchAndApplyingItGivesTheTarget(String description, String source, String target,
            String patch) {
        JsonNode from = JSON.readTree(source);
        JsonNode to = JSON.readTree(target);

        JsonPatch diff = JsonPatch.diff(from, to);

        assertThat(diff.toJson()).isEqualTo(JSON.readTree(patch));
        assertThat(JsonPatch.same(diff.applyTo(from), to)).as("%s applied to %s", diff, source).isTrue();
        assertThat(from).as("the source is left as it was").isEqualTo(JSON.readTree(source));
    }

    /** Random documents and random edits: applying the diff to the first always gives the second. */
    @Test
    void applyingTheDiffToTheSourceGivesTheTargetForThousandsOfRandomEdits() {
        Random random = new Random(20);
        for (int trial = 0; trial < 3000; trial++) {
            JsonNode source = randomValue(random, 0);
            JsonNode target = edit(random, source.deepCopy(), 0);

            JsonPatch diff = JsonPatch.diff(source, target);

            assertThat(JsonPatch.same(diff.applyTo(source), target))
                    .as("trial %d: %s applied to %s should give %s", trial, diff, source, target).isTrue();
            assertThat(JsonPatch.diff(target, target).isEmpty()).isTrue();
        }
    }

    @Test
    void aPatchDocumentFromElsewhereIsAppliedWithDashAndEscapes() {
        JsonPatch patch = new JsonPatch(List.of(
                new JsonPatch.Operation(JsonPatch.Op.ADD, "/items/-", JSON.readTree("3")),
                new JsonPatch.Operation(JsonPatch.Op.REPLACE, "/m~1n~0o", JSON.readTree("\"new\""))));

        JsonNode result = patch.applyTo(JSON.readTree("{\"items\":[1,2],\"m/n~o\":\"old\"}"));

        assertThat(result).isEqualTo(JSON.readTree("{\"items\":[1,2,3],\"m/n~o\":\"new\"}"));
    }

    @Test
    void applyingToAMissingPathFailsNamingTheOperation() {
        JsonPatch patch = new JsonPatch(List.of(new JsonPatch.Operation(JsonPatch.Op.REMOVE, "/a/b", null)));

        assertThatThrownBy(() -> patch.applyTo(JSON.readTree("{\"a\":{}}")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("cannot apply remove at '/a/b': there is no member 'b' to remove");
        assertThatThrownBy(() -> new JsonPatch(List.of(new JsonPatch.Operation(JsonPatch.Op.ADD, "/x/0",
                JSON.readTree("1")))).applyTo(JSON.readTree("{}")))
                .hasMessage("cannot apply add at '/x/0': '/x' does not exist");
        assertThatThrownBy(() -> new JsonPatch(List.of(new JsonPatch.Operation(JsonPatch.Op.ADD, "/5",
                JSON.readTree("1")))).applyTo(JSON.readTree("[1]")))
                .hasMessage("cannot apply add at '/5': index 5 is beyond the array's 1 elements");
    }

    @Test
    void anOperationNeedsAValueExceptRemove() {
        assertThatThrownBy(() -> new JsonPatch.Operation(JsonPatch.Op.ADD, "/a", null))
                .hasMessage("add at '/a' needs a value");
        assertThatThrownBy(() -> new JsonPatch.Operation(JsonPatch.Op.REMOVE, "/a", JSON.readTree("1")))
                .hasMessage("remove at '/a' takes no value");
    }

    private static JsonNode randomValue(Random random, int depth) {
        int choice = random.nextInt(depth > 3 ? 4 : 7);
        JsonNodeFactory nodes = JsonNodeFactory.instance;
        return switch (choice) {
            case 0 -> nodes.numberNode(random.nextInt(5));
            case 1 -> nodes.stringNode(randomName(random));
            case 2 -> nodes.booleanNode(random.nextBoolean());
            case 3 -> nodes.nullNode();
            case 4, 5 -> {
                ObjectNode object = nodes.objectNode();
                for (int i = random.nextInt(5); i > 0; i--) {
                    object.set(randomName(random), randomValue(random, depth + 1));
                }
                yield object;
            }
            default -> {
                ArrayNode array = nodes.arrayNode();
                for (int i = random.nextInt(6); i > 0; i--) {
                    array.add(randomValue(random, depth + 1));
                }
                yield array;
            }
        };
    }

    /** Names that need escaping now and then, and repeat often enough to collide. */
    private static String randomName(Random random) {
        return List.of("a", "b", "c", "x/y", "m~n", "~1", "", "spec").get(random.nextInt(8));
    }

    private static JsonNode edit(Random random, JsonNode node, int depth) {
        if (random.nextInt(10) == 0) {
            return randomValue(random, depth);
        }
        if (node instanceof ObjectNode object) {
            for (String name : new ArrayList<>(object.propertyNames())) {
                int action = random.nextInt(6);
                if (action == 0) {
                    object.remove(name);
                } else if (action == 1) {
                    object.set(name, edit(random, object.get(name), depth + 1));
                }
            }
            if (random.nextBoolean()) {
                object.set(randomName(random), randomValue(random, depth + 1));
            }
        } else if (node instanceof ArrayNode array) {
            for (int i = random.nextInt(3); i > 0 && !array.isEmpty(); i--) {
                array.remove(random.nextInt(array.size()));
            }
            for (int i = random.nextInt(3); i > 0; i--) {
                array.insert(random.nextInt(array.size() + 1), randomValue(random, depth + 1));
            }
            if (!array.isEmpty() && random.nextBoolean()) {
                int index = random.nextInt(array.size());
                array.set(index, edit(random, array.get(index), depth + 1));
            }
        }
        return node;
    }
}
