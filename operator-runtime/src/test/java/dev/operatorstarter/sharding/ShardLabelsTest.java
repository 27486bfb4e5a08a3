package dev.operatorstarter.sharding;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** The keys of one ring, a shard's selector, and the names they accept. */
class ShardLabelsTest {

    @Test
    void keysAndSelectorOfARing() {
        ShardLabels labels = new ShardLabels("sample-operator", "sample-operator-7d9f-a41f0c");

        assertThat(labels.token()).isEqualTo("shard.sharding.operatorstarter.dev/sample-operator");
        assertThat(labels.drain()).isEqualTo("drain.sharding.operatorstarter.dev/sample-operator");
        assertThat(labels.arrival()).isEqualTo("arrival.sharding.operatorstarter.dev/sample-operator");
        assertThat(labels.selector())
                .isEqualTo("shard.sharding.operatorstarter.dev/sample-operator=sample-operator-7d9f-a41f0c");
        assertThat(ShardLabels.leaseName("ring", "pod-1-abc123")).isEqualTo("ring-pod-1-abc123");
    }

    @Test
    void aRingNameOrShardIdThatIsNotADnsLabelIsRefusedNamingTheOptionsField() {
        assertThatThrownBy(() -> new ShardLabels("Sample", "a")).hasMessageStartingWith("ring must be a DNS label")
                .hasMessageContaining("'Sample'").hasMessageNotContaining("operator.sharding");
        assertThatThrownBy(() -> new ShardLabels("r".repeat(64), "a")).hasMessageContaining("at most 63");
        assertThatThrownBy(() -> new ShardLabels("ring", "-a")).hasMessageStartingWith("shardId must be a DNS label")
                .hasMessageNotContaining("operator.sharding");
        assertThatThrownBy(() -> new ShardLabels("ring", null)).hasMessageContaining("'null'");
        assertThatThrownBy(() -> ShardingOptions.builder("ring", "A", "ns").build()).hasMessageStartingWith("shardId ");
    }

    @Test
    void theLongestLeaseNameFitsWithoutACut() {
        String longest = ShardLabels.leaseName("r".repeat(63), "s".repeat(63));

        assertThat(longest).hasSize(127).isEqualTo("r".repeat(63) + "-" + "s".repeat(63));
    }

    @Test
    void aShardIdIsTheHostNameMadeADnsLabelAndARandomSuffix() {
        assertThat(ShardLabels.shardIdFor("sample-operator-7d9f5c-x2k4p", "a41f0c"))
                .isEqualTo("sample-operator-7d9f5c-x2k4p-a41f0c");
        assertThat(ShardLabels.shardIdFor("My_Host.example", "A41F0C")).isEqualTo("my-host-example-a41f0c");
        assertThat(ShardLabels.shardIdFor("", "a41f0c")).isEqualTo("shard-a41f0c");
        assertThat(ShardLabels.shardIdFor(null, "a41f0c")).isEqualTo("shard-a41f0c");
        String longest = ShardLabels.shardIdFor("h".repeat(80) + "-", "a41f0c");
        assertThat(longest).hasSize(63).endsWith("-a41f0c");
        assertThat(ShardLabels.shardIdFor("x".repeat(55) + "--y", "a41f0c")).as("no '--' left at the cut")
                .isEqualTo("x".repeat(55) + "-a41f0c");
    }
}
