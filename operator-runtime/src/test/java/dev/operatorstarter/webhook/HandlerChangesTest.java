package dev.operatorstarter.webhook;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import tools.jackson.databind.json.JsonMapper;

class HandlerChangesTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    static Stream<Arguments> cases() {
        return Stream.of(
                Arguments.of("an untouched object stays exactly as sent",
                        "{\"a\":1,\"unknown\":2}", "{\"a\":1,\"filled\":{}}", "{\"a\":1,\"filled\":{}}",
                        "{\"a\":1,\"unknown\":2}"),
                Arguments.of("a member the class does not read is kept",
                        "{\"a\":1,\"unknown\":2}", "{\"a\":1}", "{\"a\":5}", "{\"a\":5,\"unknown\":2}"),
                Arguments.of("a member the class fills in is left out unless changed",
                        "{\"a\":1}", "{\"a\":1,\"filled\":{},\"other\":[]}", "{\"a\":2,\"filled\":{},\"other\":[1]}",
                        "{\"a\":2,\"other\":[1]}"),
                Arguments.of("a member the handler removed is removed",
                        "{\"a\":1,\"b\":2}", "{\"a\":1,\"b\":2}", "{\"a\":1}", "{\"a\":1}"),
                Arguments.of("a member the handler added is added",
                        "{\"a\":1}", "{\"a\":1}", "{\"a\":1,\"b\":{\"c\":3}}", "{\"a\":1,\"b\":{\"c\":3}}"),
                Arguments.of("elements of an array of the same length keep their unknown members",
                        "{\"list\":[{\"n\":1,\"x\":true},{\"n\":2,\"x\":false}]}", "{\"list\":[{\"n\":1},{\"n\":2}]}",
                        "{\"list\":[{\"n\":1},{\"n\":3}]}", "{\"list\":[{\"n\":1,\"x\":true},{\"n\":3,\"x\":false}]}"),
                Arguments.of("an element appended keeps the unknown members of the others",
                        "{\"list\":[{\"n\":1,\"x\":true}]}", "{\"list\":[{\"n\":1}]}",
                        "{\"list\":[{\"n\":1},{\"n\":2}]}", "{\"list\":[{\"n\":1,\"x\":true},{\"n\":2}]}"),
                Arguments.of("an element inserted first keeps the unknown members of the ones after it",
                        "{\"list\":[{\"n\":1,\"x\":1},{\"n\":2,\"x\":2}]}", "{\"list\":[{\"n\":1},{\"n\":2}]}",
                        "{\"list\":[{\"n\":0},{\"n\":1},{\"n\":2}]}",
                        "{\"list\":[{\"n\":0},{\"n\":1,\"x\":1},{\"n\":2,\"x\":2}]}"),
                Arguments.of("an element removed from the middle leaves the others as sent",
                        "{\"list\":[{\"n\":1,\"x\":1},{\"n\":2,\"x\":2},{\"n\":3,\"x\":3}]}",
                        "{\"list\":[{\"n\":1},{\"n\":2},{\"n\":3}]}", "{\"list\":[{\"n\":1},{\"n\":3}]}",
                        "{\"list\":[{\"n\":1,\"x\":1},{\"n\":3,\"x\":3}]}"),
                Arguments.of("an element changed while another is appended is merged in place",
                        "{\"list\":[{\"n\":1,\"x\":1},{\"n\":2,\"x\":2}]}", "{\"list\":[{\"n\":1},{\"n\":2}]}",
                        "{\"list\":[{\"n\":1},{\"n\":5},{\"n\":6}]}",
                        "{\"list\":[{\"n\":1,\"x\":1},{\"n\":5,\"x\":2},{\"n\":6}]}"),
                Arguments.of("a value of another type is the handler's",
                        "{\"a\":{\"b\":1,\"x\":0}}", "{\"a\":{\"b\":1}}", "{\"a\":\"flat\"}", "{\"a\":\"flat\"}"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void theResultIsTheHandlersChangesOverTheObjectAsSent(String description, String sent, String decoded,
            String changed, String expected) {
        assertThat(HandlerChanges.over(JSON.readTree(sent), JSON.readTree(decoded), JSON.readTree(changed)))
                .isEqualTo(JSON.readTree(expected));
    }
}
