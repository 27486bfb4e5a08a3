package dev.operatorstarter.sharding;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.NullAndEmptySource;

/** The assigner's and the shard's label writes: merge patches that remove with null and carry the version they were decided on. */
class LabelPatchTest {

    @Test
    void aPatchCarriesTheResourceVersionAndKeepsItsNullsWhichRemoveKeys() {
        String body = LabelPatch.at("42").label("shard.sharding.operatorstarter.dev/ring", "b")
                .label("drain.sharding.operatorstarter.dev/ring", null)
                .annotation("arrival.sharding.operatorstarter.dev/ring", "configmaps=2").toString();

        assertThat(body).isEqualTo("{\"metadata\":{\"resourceVersion\":\"42\",\"labels\":{"
                + "\"shard.sharding.operatorstarter.dev/ring\":\"b\",\"drain.sharding.operatorstarter.dev/ring\":null},"
                + "\"annotations\":{\"arrival.sharding.operatorstarter.dev/ring\":\"configmaps=2\"}}}");
    }

    @Test
    void anUnchangedPartIsLeftOutAndAPatchIsNeverChangedByALaterOne() {
        LabelPatch atVersion = LabelPatch.at("5");
        LabelPatch drain = atVersion.label("drain", "true");

        assertThat(drain).hasToString("{\"metadata\":{\"resourceVersion\":\"5\",\"labels\":{\"drain\":\"true\"}}}");
        assertThat(atVersion).hasToString("{\"metadata\":{\"resourceVersion\":\"5\"}}");
    }

    @ParameterizedTest(name = "resourceVersion \"{0}\"")
    @NullAndEmptySource
    void aPatchWithoutAResourceVersionIsRefusedItWouldNotBeConditional(String resourceVersion) {
        assertThatThrownBy(() -> LabelPatch.at(resourceVersion)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("needs the resourceVersion");
    }

    @Test
    void theShardsAcknowledgementRemovesTokenAndDrainAtTheCachedVersion() {
        assertThat(ShardDecorator.ackPatch(new ShardLabels("ring", "a"), "7")).isEqualTo("{\"metadata\":{"
                + "\"resourceVersion\":\"7\",\"labels\":{\"shard.sharding.operatorstarter.dev/ring\":null,"
                + "\"drain.sharding.operatorstarter.dev/ring\":null}}}");
    }
}
