package dev.operatorstarter.cache;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.LabelSelectorBuilder;
import io.fabric8.kubernetes.api.model.LabelSelectorRequirement;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
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
