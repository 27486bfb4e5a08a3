package dev.operatorstarter.cache;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.entry;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The read-only collections and the pool behind {@link Transforms#compact()}. */
class CompactCollectionsTest {

    @Test
    void aCompactMapReadsLikeALinkedHashMapAndRefusesChanges() {
        Map<String, String> expected = new LinkedHashMap<>();
        expected.put("b", "2");
        expected.put("a", "1");
        expected.put("c", null);
        Map<String, String> map = CompactMap.wrap(new Object[] {"b", "2", "a", "1", "c", null});

        assertThat(map).isEqualTo(expected).hasSameHashCodeAs(expected).hasSize(3)
                .containsExactly(entry("b", "2"), entry("a", "1"), entry("c", null));
        assertThat(expected).isEqualTo(map);
        assertThat(map.get("a")).isEqualTo("1");
        assertThat(map.get(new String("a"))).isEqualTo("1"); // equal, not only the same instance
        assertThat(map.get("missing")).isNull();
        assertThat(map.get(null)).isNull();
        assertThat(map.containsKey("c")).isTrue();
        assertThat(map.getOrDefault("c", "default")).isNull();
        assertThat(map.getOrDefault("d", "default")).isEqualTo("default");
        assertThat(map.toString()).isEqualTo(expected.toString());
        List<String> visited = new ArrayList<>();
        map.forEach((key, value) -> visited.add(key + "=" + value));
        assertThat(visited).containsExactly("b=2", "a=1", "c=null");

        assertThatThrownBy(() -> map.put("d", "4")).isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> map.remove("a")).isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> map.entrySet().iterator().next().setValue("x"))
                .isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(map::clear).isInstanceOf(UnsupportedOperationException.class);
        assertThat(map).hasSize(3);
    }

    @Test
    void aCompactMapHoldsAtMostItsBound() {
        assertThatThrownBy(() -> CompactMap.wrap(new Object[2 * CompactMap.MAX_SIZE + 2]))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> CompactMap.wrap(new Object[3])).isInstanceOf(IllegalArgumentException.class);
        Map<Object, Object> empty = CompactMap.wrap(new Object[0]);
        assertThat(empty).isEmpty();
        assertThat(empty).isSameAs(CompactMap.wrap(new Object[0]));
    }

    @Test
    void aCompactListReadsLikeAnArrayListAndRefusesChanges() {
        List<String> expected = new ArrayList<>(Arrays.asList("a", null, "b"));
        List<String> list = CompactList.wrap(new Object[] {"a", null, "b"});

        assertThat(list).isEqualTo(expected).hasSameHashCodeAs(expected).containsExactly("a", null, "b");
        assertThat(expected).isEqualTo(list);
        assertThat(list.contains(null)).isTrue(); // unlike List.of, which throws
        assertThat(list.indexOf("b")).isEqualTo(2);
        assertThat(list.toString()).isEqualTo(expected.toString());
        assertThatThrownBy(() -> list.add("c")).isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> list.set(0, "c")).isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> list.remove(0)).isInstanceOf(UnsupportedOperationException.class);
        Object[] copy = list.toArray();
        copy[0] = "changed";
        assertThat(list.get(0)).isEqualTo("a");
        List<Object> empty = CompactList.wrap(new Object[0]);
        assertThat(empty).isEmpty();
        assertThat(empty).isSameAs(CompactList.wrap(new Object[0]));
    }

    @Test
    void thePoolSharesEqualValuesAndKeepsTheOrderOfMaps() {
        Interner pool = new Interner();
        String first = new String("web");
        assertThat(pool.share(first)).isSameAs(first);
        assertThat(pool.share(new String("web"))).isSameAs(first);
        Long port = 8080L;
        assertThat(pool.share(Long.valueOf(8080))).isSameAs(pool.share(port));

        CompactMap<String, String> ab = CompactMap.wrap(new Object[] {"a", "1", "b", "2"});
        CompactMap<String, String> abAgain = CompactMap.wrap(new Object[] {"a", "1", "b", "2"});
        CompactMap<String, String> ba = CompactMap.wrap(new Object[] {"b", "2", "a", "1"});
        assertThat(pool.share(ab)).isSameAs(ab);
        assertThat(pool.share(abAgain)).isSameAs(ab);
        assertThat(pool.share(ba)).isSameAs(ba).isEqualTo(ab);
        CompactList<String> list = CompactList.wrap(new Object[] {"a", "1", "b", "2"});
        assertThat(pool.share(list)).isSameAs(list); // not the map with the same array content
    }

    @Test
    void aFullPoolStartsAfreshSoItsSizeIsBounded() {
        Interner pool = new Interner(100);
        for (int i = 0; i < 1_000; i++) {
            pool.share("value-" + i);
            assertThat(pool.size()).isLessThanOrEqualTo(100);
        }
        String recent = pool.share(new String("recent"));
        assertThat(pool.share(new String("recent"))).isSameAs(recent); // still shares after starting afresh
    }

    @Test
    void aFieldWhoseValuesDoNotRepeatStopsBeingPooledAfterItsSamples() {
        Compaction.Site.Stats unique = new Compaction.Site.Stats(false);
        Compaction.Site.Stats repeated = new Compaction.Site.Stats(false);
        for (int i = 0; i < Compaction.Site.SAMPLES; i++) {
            assertThat(unique.sharing()).isTrue();
            unique.record(i % 5 == 0); // 20% hits
            repeated.record(i % 3 != 0); // 67% hits
        }
        assertThat(unique.sharing()).isFalse();
        assertThat(repeated.sharing()).isTrue();
        for (int i = 0; i < Compaction.Site.SAMPLES; i++) {
            repeated.record(false); // decided once: later misses do not change it
        }
        assertThat(repeated.sharing()).isTrue();
        assertThat(new Compaction.Site.Stats(true).sharing()).isFalse();
    }

    @Test
    void largeMapsStayHashedButReadOnly() {
        Map<String, String> large = new HashMap<>();
        for (int i = 0; i < CompactMap.MAX_SIZE + 5; i++) {
            large.put("key-" + i, "value-" + i);
        }
        io.fabric8.kubernetes.api.model.ConfigMap configMap = new io.fabric8.kubernetes.api.model.ConfigMapBuilder()
                .withNewMetadata().withName("big").withNamespace("n").endMetadata().withData(large).build();
        io.fabric8.kubernetes.api.model.ConfigMap cached = Transforms.<io.fabric8.kubernetes.api.model.ConfigMap>compact()
                .apply(configMap);
        assertThat(cached.getData()).isEqualTo(large).isNotInstanceOf(CompactMap.class);
        assertThatThrownBy(() -> cached.getData().put("x", "y")).isInstanceOf(UnsupportedOperationException.class);
    }
}
