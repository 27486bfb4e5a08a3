package dev.operatorstarter.cache;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.LabelSelectorBuilder;
import io.fabric8.kubernetes.api.model.LabelSelectorRequirement;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.Test;

class LabelSelectorTest {

    private static final Map<String, String> LABELS = Map.of("app", "web", "tier", "frontend", "replicas", "3",
            "example.com/owner", "team-a");

    @ParameterizedTest(name = "\"{0}\" matches: {1}")
    @CsvSource(delimiter = '|', value = {
        "''                              | true",
        "app=web                         | true",
        "app==web                        | true",
        "app=api                         | false",
        "app!=api                        | true",
        "missing!=x                      | true",
        "app in (api, web)               | true",
        "missing in (a)                  | false",
        "app notin (api,worker)          | true",
        "missing notin (a)               | true",
        "app                             | true",
        "missing                         | false",
        "!missing                        | true",
        "!app                            | false",
        "replicas>2                      | true",
        "replicas<3                      | false",
        "app>2                           | false",
        "example.com/owner=team-a        | true",
        " app = web , tier in (frontend) | true",
        "app=web,tier=backend            | false",
        "missing in ()                   | false",
        "missing notin ()                | true",
    })
    void matchesLikeTheApiServer(String selector, boolean matches) {
        assertThat(LabelSelector.parse(selector).matches(LABELS)).isEqualTo(matches);
    }

    @ParameterizedTest(name = "\"{0}\" fails with {1}")
    @CsvSource(delimiter = '|', value = {
        "app in (web             | expected ',' or ')'",
        "app in web              | expected '('",
        "app=web,                | expected a label key at position 8",
        "app ~ web               | expected =, ==, !=, in, notin",
        "replicas>many           | expected an integer",
        "-app=web                | not a valid label name",
        "app=-web                | not a valid label value",
        "Example.com/app=x       | invalid prefix",
    })
    void badSelectorsSayWhatAndWhere(String selector, String message) {
        assertThatThrownBy(() -> LabelSelector.parse(selector)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("\"" + selector + "\"").hasMessageContaining(message);
    }

    /**
     * What apimachinery's {@code labels.Parse} accepts, with the canonical text it reads as here:
     * the good cases of its {@code TestSelectorParse} and {@code TestSetSelectorParser}, and
     * {@code TestLexerSequence}'s sequences that form a selector ({@code a in (x)} reads as
     * {@code a=x}, and requirements sort by key).
     */
    static Stream<Arguments> accepted() {
        return Stream.of(
                // TestSelectorParse
                Arguments.of("x=a,y=b,z=c", "x=a,y=b,z=c"),
                Arguments.of("", ""),
                Arguments.of("x!=a,y=b", "x!=a,y=b"),
                Arguments.of("x=", "x="),
                Arguments.of("x= ", "x="),
                Arguments.of("x=,z= ", "x=,z="),
                Arguments.of("x= ,z= ", "x=,z="),
                Arguments.of("!x", "!x"),
                Arguments.of("x>1", "x>1"),
                Arguments.of("x>1,z<5", "x>1,z<5"),
                // TestSetSelectorParser
                Arguments.of("\rx", "x"),
                Arguments.of("this-is-a-dns.domain.com/key-with-dash", "this-is-a-dns.domain.com/key-with-dash"),
                Arguments.of("this-is-another-dns.domain.com/key-with-dash in (so,what)",
                        "this-is-another-dns.domain.com/key-with-dash in (so,what)"),
                Arguments.of("0.1.2.domain/99 notin (10.10.100.1, tick.tack.clock)",
                        "0.1.2.domain/99 notin (10.10.100.1,tick.tack.clock)"),
                Arguments.of("foo  in\t (abc)", "foo=abc"),
                Arguments.of("x notin\n (abc)", "x!=abc"),
                Arguments.of("x  notin\t\t\t(abc,def)", "x notin (abc,def)"),
                Arguments.of("x in (abc,def)", "x in (abc,def)"),
                Arguments.of("x in (abc,)", "x in (,abc)"),
                Arguments.of("x in ()", "x="),
                Arguments.of("x notin (abc,,def),bar,z in (),w", "bar,w,x notin (,abc,def),z="),
                Arguments.of("x,y in (a)", "x,y=a"),
                Arguments.of("x=a", "x=a"),
                Arguments.of("x<7", "x<7"),
                Arguments.of("x=a,y!=b,z in (h,i,j)", "x=a,y!=b,z in (h,i,j)"),
                Arguments.of("x notin ( )", "x!="),
                Arguments.of("x notin (, a)", "x notin (,a)"),
                Arguments.of("a ", "a"),
                Arguments.of("a in (x,y,notin, z,in)", "a in (in,notin,x,y,z)"),
                // TestSelectorMatches: in and notin are keys and values where an identifier is expected
                Arguments.of("notin=in", "notin=in"),
                Arguments.of("in", "in"),
                Arguments.of("notin", "notin"),
                // TestLexerSequence
                Arguments.of("key in ( value )", "key=value"),
                Arguments.of("key notin ( value )", "key!=value"),
                Arguments.of("key in ( value1, value2 )", "key in (value1,value2)"),
                Arguments.of("key", "key"),
                Arguments.of("!key", "!key"),
                Arguments.of("x in (),y", "x=,y"),
                Arguments.of("key>2", "key>2"),
                Arguments.of("key<1", "key<1"),
                // '!' and its key are two tokens; "!=" is one, spaces around it allowed
                Arguments.of("! x", "!x"),
                Arguments.of("x != a", "x!=a"),
                Arguments.of("x !=a", "x!=a"),
                // the four whitespace characters of apimachinery's lexer, anywhere between tokens
                Arguments.of("\tx\r\n=\na ,\t!y", "x=a,!y"),
                Arguments.of(" \t\r\n", ""));
    }

    @ParameterizedTest(name = "\"{0}\" reads as \"{1}\"")
    @MethodSource("accepted")
    void acceptsWhatApimachineryAccepts(String selector, String canonical) {
        assertThat(LabelSelector.parse(selector)).hasToString(canonical);
    }

    /**
     * What apimachinery's {@code labels.Parse} refuses, with what our message says and where: the
     * bad cases of its {@code TestSelectorParse} and {@code TestSetSelectorParser}, single
     * {@code TestLexer} tokens that are no selector, and the lexer's whitespace and {@code !} rules.
     */
    static Stream<Arguments> refused() {
        return Stream.of(
                // TestSelectorParse
                Arguments.of("x=a||y=b", "value \"a||y\" is not a valid label value", 0), // '|' is no symbol
                Arguments.of("x==a==b", "expected ','", 4),
                Arguments.of("!x=a", "expected ','", 2),
                Arguments.of("x<a", "expected an integer after '<'", 2),
                // TestSetSelectorParser
                Arguments.of("x,,y", "expected a label key", 2),
                Arguments.of(",x,y", "expected a label key", 0),
                Arguments.of("x nott in (y)", "after key \"x\"", 2),
                Arguments.of("a in (xyz),", "expected a label key", 11),
                Arguments.of("a in (xyz)b notin ()", "expected ','", 10),
                Arguments.of("a in (xyz abc)", "expected ',' or ')'", 10),
                Arguments.of("a notin(", "expected ',' or ')'", 8),
                Arguments.of("a (", "after key \"a\"", 2),
                Arguments.of("(", "expected a label key", 0),
                // TestLexer: a token alone
                Arguments.of(",", "expected a label key", 0),
                Arguments.of("=", "expected a label key", 0),
                Arguments.of("==", "expected a label key", 0),
                Arguments.of(">", "expected a label key", 0),
                Arguments.of("<", "expected a label key", 0),
                Arguments.of("!", "expected a label key", 1),
                Arguments.of("!=", "expected a label key", 1),
                Arguments.of(")", "expected a label key", 0),
                Arguments.of("~", "key \"~\" is not a valid label name", 0), // an identifier, and no valid key
                Arguments.of("||", "key \"||\" is not a valid label name", 0),
                // TestLexerSequence: sequences that lex but do not parse
                Arguments.of("()", "expected a label key", 0),
                Arguments.of("== != (), = notin", "expected a label key", 0),
                // '!' apart from '=' is the does-not-exist prefix, not an operator
                Arguments.of("x ! = a", "'!' after key \"x\" is not an operator", 2),
                Arguments.of("x! =a", "'!' after key \"x\" is not an operator", 1),
                Arguments.of("x !", "'!' after key \"x\" is not an operator", 2),
                // whitespace is only ' ', '\t', '\r', '\n': anything else is part of a key or value
                Arguments.of("x\u000B=a", "key \"x\u000B\" is not a valid label name", 0),
                Arguments.of("\u000Bx=a", "key \"\u000Bx\" is not a valid label name", 0),
                Arguments.of("x=\u000Ba", "value \"\u000Ba\" is not a valid label value", 0),
                Arguments.of("x\u000Cin (a)", "after key \"x\u000Cin\"", 5),
                Arguments.of("x=a,\u2003y", "key \"\u2003y\" is not a valid label name", 4),
                Arguments.of("x\u00A0=a", "key \"x\u00A0\" is not a valid label name", 0),
                Arguments.of("x=a\u2028", "value \"a\u2028\" is not a valid label value", 0),
                Arguments.of("\u000B", "key \"\u000B\" is not a valid label name", 0),
                Arguments.of("\u2003", "key \"\u2003\" is not a valid label name", 0),
                Arguments.of("ключ=a", "key \"ключ\" is not a valid label name", 0));
    }

    @ParameterizedTest(name = "\"{0}\" is refused: {1}")
    @MethodSource("refused")
    void refusesWhatApimachineryRefusesSayingWhatAndWhere(String selector, String problem, int position) {
        assertThatThrownBy(() -> LabelSelector.parse(selector)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("invalid label selector \"" + selector + "\"")
                .hasMessageContaining(problem)
                .hasMessageContaining("at position " + position);
    }

    @Test
    void keysFollowQualifiedNameRules() {
        assertThat(LabelSelector.parse("example.com/app=x").matches(Map.of("example.com/app", "x"))).isTrue();
        String longName = "a".repeat(64);
        assertThatThrownBy(() -> LabelSelector.parse(longName + "=x")).hasMessageContaining("at most 63");
        assertThat(LabelSelector.parse("a".repeat(63) + "=x").isEverything()).isFalse();
    }

    @Test
    void aSetOfOneValueIsTheSameRequirementAsAnEquality() {
        assertThat(LabelSelector.parse("a in (x)")).isEqualTo(LabelSelector.parse("a=x")).hasToString("a=x")
                .hasSameHashCodeAs(LabelSelector.parse("a==x"));
        assertThat(LabelSelector.parse("a notin (x)")).isEqualTo(LabelSelector.parse("a!=x")).hasToString("a!=x");
        assertThat(LabelSelector.parse("a in (x, x)")).isEqualTo(LabelSelector.parse("a=x"));
        assertThat(LabelSelector.parse("a notin (x)").matches(Map.of())).isTrue(); // as a!=x: a missing label passes
        assertThat(LabelSelector.parse("a=x, b in (y)").hasEveryRequirementOf(LabelSelector.parse("b=y"))).isTrue();
        assertThat(LabelSelector.parse("a in (x, y)")).isNotEqualTo(LabelSelector.parse("a=x"));
    }

    @Test
    void theCanonicalTextSortsByKeyAndReadsBackEqual() {
        LabelSelector selector = LabelSelector.parse("tier notin (b, a), app = web, !gone, ready");
        assertThat(selector).hasToString("app=web,!gone,ready,tier notin (a,b)");
        assertThat(LabelSelector.parse(selector.toString())).isEqualTo(selector);
        assertThat(LabelSelector.parse("app==web")).isEqualTo(LabelSelector.parse(" app = web "))
                .hasSameHashCodeAs(LabelSelector.parse("app=web"));
        assertThat(LabelSelector.parse("  ")).isEqualTo(LabelSelector.everything());
        assertThat(LabelSelector.everything().matches(null)).isTrue();
    }

    @Test
    void andKeepsEveryRequirementOfBothOnceInTheCanonicalForm() {
        LabelSelector user = LabelSelector.parse("app=web, tier in (b,a)");
        LabelSelector shard = LabelSelector.parse("shard.sharding.operatorstarter.dev/ring=one");
        LabelSelector both = user.and(shard);
        assertThat(both).hasToString("app=web,shard.sharding.operatorstarter.dev/ring=one,tier in (a,b)")
                .isEqualTo(shard.and(user))
                .isEqualTo(LabelSelector.parse(both.toString()));
        assertThat(both.matches(Map.of("app", "web", "tier", "a", "shard.sharding.operatorstarter.dev/ring", "one")))
                .isTrue();
        assertThat(both.matches(Map.of("app", "web", "tier", "a"))).as("the shard's requirement holds too").isFalse();
        assertThat(user.and(user)).isEqualTo(user).hasToString("app=web,tier in (a,b)");
        assertThat(user.and(LabelSelector.everything())).isSameAs(user);
        assertThat(LabelSelector.everything().and(shard)).isSameAs(shard);
        // Two requirements on one key are both kept, and their order does not matter.
        assertThat(LabelSelector.parse("a=x").and(LabelSelector.parse("a!=y")))
                .isEqualTo(LabelSelector.parse("a!=y").and(LabelSelector.parse("a=x")))
                .hasToString("a=x,a!=y");
        assertThat(LabelSelector.parse("a in (x)").and(LabelSelector.parse("a in (y)")))
                .isEqualTo(LabelSelector.parse("a in (y), a in (x)"))
                .satisfies(conflicting -> assertThat(conflicting.matches(Map.of("a", "x"))).isFalse());
        assertThat(LabelSelector.parse("app=web,app=web")).isEqualTo(LabelSelector.parse("app=web"));
    }

    @Test
    void convertsTheApiObjectsMatchLabelsAndExpressions() {
        LabelSelector selector = LabelSelector.from(new LabelSelectorBuilder().addToMatchLabels("app", "web")
                .addToMatchExpressions(new LabelSelectorRequirement("tier", "In", List.of("frontend", "edge")))
                .addToMatchExpressions(new LabelSelectorRequirement("canary", "DoesNotExist", null)).build());
        assertThat(selector).isEqualTo(LabelSelector.parse("app=web,tier in (edge,frontend),!canary"));
        assertThat(selector.matches(LABELS)).isTrue();
        assertThat(LabelSelector.from(null).isEverything()).isTrue();
        assertThat(LabelSelector.from(new LabelSelectorBuilder().build()).isEverything()).isTrue();
        assertThatThrownBy(() -> LabelSelector.from(new LabelSelectorBuilder()
                .addToMatchExpressions(new LabelSelectorRequirement("tier", "In", List.of())).build()))
                .hasMessageContaining("needs values");
        assertThatThrownBy(() -> LabelSelector.from(new LabelSelectorBuilder()
                .addToMatchExpressions(new LabelSelectorRequirement("tier", "Exists", List.of("x"))).build()))
                .hasMessageContaining("takes no values");
        assertThatThrownBy(() -> LabelSelector.from(new LabelSelectorBuilder()
                .addToMatchExpressions(new LabelSelectorRequirement("tier", "Gt", List.of("1"))).build()))
                .hasMessageContaining("operator \"Gt\"");
        java.util.Map<String, String> nullValue = new java.util.HashMap<>();
        nullValue.put("app", null);
        assertThatThrownBy(() -> LabelSelector.from(new LabelSelectorBuilder().withMatchLabels(nullValue).build()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("matchLabels[app] has no value");
        assertThat(LabelSelector.parse("app in ()")).isEqualTo(LabelSelector.parse("app in ( )"))
                .satisfies(empty -> assertThat(empty.matches(Map.of("app", ""))).isTrue());
    }
}
