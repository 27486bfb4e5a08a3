package dev.operatorstarter.cache;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** Scopes are the factory's keys: equal scopes share one informer, so their forms must be canonical. */
class InformerScopeTest {

    @Test
    void andLabelSelectorAddsToTheSelectorAndKeepsNamespaceAndFields() {
        InformerScope scope = InformerScope.namespace("a").withLabelSelector("app = web")
                .withFieldSelector("metadata.name=x");
        InformerScope narrowed = scope.andLabelSelector("shard.sharding.operatorstarter.dev/ring=one");
        assertThat(narrowed).isEqualTo(new InformerScope("a", "app=web,shard.sharding.operatorstarter.dev/ring=one",
                "metadata.name=x"));
        assertThat(narrowed.suffix()).isEqualTo("/a [app=web,shard.sharding.operatorstarter.dev/ring=one;metadata.name=x]");
        assertThat(InformerScope.all().andLabelSelector("app==web")).isEqualTo(InformerScope.all()
                .withLabelSelector("app=web"));
        assertThat(scope.andLabelSelector(" ")).isEqualTo(scope);
        assertThat(scope.andLabelSelector(null)).isEqualTo(scope);
        assertThat(scope.withLabelSelector("tier=db")).as("withLabelSelector replaces")
                .isEqualTo(InformerScope.namespace("a").withLabelSelector("tier=db").withFieldSelector("metadata.name=x"));
    }

    @Test
    void narrowingEqualScopesInAnyOrderGivesEqualScopes() {
        InformerScope first = InformerScope.namespace("a").withLabelSelector("app=web").andLabelSelector("tier=db");
        InformerScope second = InformerScope.namespace("a").withLabelSelector("tier = db").andLabelSelector("app==web");
        assertThat(first).isEqualTo(second).hasSameHashCodeAs(second);
        assertThat(first.andLabelSelector("app=web")).as("a requirement it has already").isEqualTo(first);
    }

    @Test
    void aBadSelectorIsRefusedNamingIt() {
        assertThatThrownBy(() -> InformerScope.all().andLabelSelector("app in web"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("\"app in web\"");
    }
}
