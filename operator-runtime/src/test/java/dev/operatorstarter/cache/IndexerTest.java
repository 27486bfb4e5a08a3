package dev.operatorstarter.cache;

import static dev.operatorstarter.cache.ConfigMaps.configMap;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

class IndexerTest {

    private final Indexer<ConfigMap> indexer = Indexer.create();

    private static ConfigMap labelled(String namespace, String name, String team) {
        return new ConfigMapBuilder().withNewMetadata().withNamespace(namespace).withName(name)
                .addToLabels("team", team).endMetadata().build();
    }

    private static IndexFunction<ConfigMap> byTeam() {
        return object -> List.of(object.getMetadata().getLabels().get("team").split("\\+"));
    }

    @Test
    void storesByNamespaceAndNameAndIndexesByNamespace() {
        indexer.add(configMap("a", "one", "1"));
        indexer.add(configMap("a", "two", "1"));
        indexer.add(configMap("b", "one", "1"));
        assertThat(indexer.get("a/one")).isPresent();
        assertThat(indexer.get("one")).isEmpty();
        assertThat(indexer.size()).isEqualTo(3);
        assertThat(indexer.indexKeys(IndexFunction.NAMESPACE, "a")).containsExactlyInAnyOrder("a/one", "a/two");
        assertThat(indexer.listIndexFuncValues(IndexFunction.NAMESPACE)).containsExactlyInAnyOrder("a", "b");
        indexer.delete(configMap("a", "one", "2"));
        assertThat(indexer.byIndex(IndexFunction.NAMESPACE, "a")).extracting(Keys::of).containsExactly("a/two");
    }

    @Test
    void anUpdateMovesTheObjectsIndexEntries() {
        indexer.addIndexers(Map.of("team", byTeam()));
        indexer.add(labelled("a", "x", "red"));
        indexer.update(labelled("a", "x", "blue"));
        assertThat(indexer.indexKeys("team", "red")).isEmpty();
        assertThat(indexer.listIndexFuncValues("team")).containsExactly("blue");
    }

    @Test
    void anObjectCanHaveSeveralIndexValuesAndIndexFindsItsPeers() {
        indexer.addIndexers(Map.of("team", byTeam()));
        indexer.add(labelled("a", "x", "red+blue"));
        indexer.add(labelled("a", "y", "blue"));
        indexer.add(labelled("a", "z", "green"));
        assertThat(indexer.byIndex("team", "blue")).extracting(Keys::of).containsExactlyInAnyOrder("a/x", "a/y");
        assertThat(indexer.index("team", labelled("q", "probe", "red+green"))).extracting(Keys::of)
                .containsExactlyInAnyOrder("a/x", "a/z");
    }

    @Test
    void indexesAddedLaterCoverExistingObjectsAndNamesAreUnique() {
        indexer.add(labelled("a", "x", "red"));
        indexer.addIndexers(Map.of("team", byTeam()));
        assertThat(indexer.indexKeys("team", "red")).containsExactly("a/x");
        assertThatThrownBy(() -> indexer.addIndexers(Map.of("team", byTeam()))).hasMessageContaining("team");
        assertThatThrownBy(() -> indexer.byIndex("nope", "x")).hasMessageContaining("no index named nope");
    }

    @Test
    void replaceSwapsTheWholeContentAndItsIndexes() {
        indexer.add(configMap("a", "old", "1"));
        indexer.replace(List.of(configMap("b", "new", "1")));
        assertThat(indexer.listKeys()).containsExactly("b/new");
        assertThat(indexer.listIndexFuncValues(IndexFunction.NAMESPACE)).containsExactly("b");
    }

    /** byTeam, except that it throws for the team "poison". */
    private static IndexFunction<ConfigMap> byTeamRejectingPoison() {
        return object -> {
            String team = object.getMetadata().getLabels().get("team");
            if (team.equals("poison")) {
                throw new IllegalStateException("cannot index team poison");
            }
            return List.of(team);
        };
    }

    @Test
    void anUpdateWhoseIndexValuesCannotBeComputedChangesNothingAndSaysWhichIndexAndKey() {
        indexer.addIndexers(Map.of("team", byTeamRejectingPoison()));
        ConfigMap red = labelled("a", "x", "red");
        indexer.add(red);
        assertThatThrownBy(() -> indexer.update(labelled("a", "x", "poison")))
                .isInstanceOfSatisfying(IndexFunctionException.class, e -> {
                    assertThat(e.indexName()).isEqualTo("team");
                    assertThat(e.key()).isEqualTo("a/x");
                })
                .hasMessageContaining("cannot index team poison")
                .hasCauseInstanceOf(IllegalStateException.class);
        assertThat(indexer.get("a/x")).containsSame(red);
        assertThat(indexer.byIndex("team", "red")).containsExactly(red);
        assertThat(indexer.byIndex(IndexFunction.NAMESPACE, "a")).containsExactly(red);
        assertThat(indexer.listIndexFuncValues("team")).containsExactly("red");
    }

    @Test
    void aNewObjectWhoseIndexValuesCannotBeComputedIsNotStored() {
        indexer.addIndexers(Map.of("team", byTeamRejectingPoison()));
        assertThatThrownBy(() -> indexer.add(labelled("a", "x", "poison"))).isInstanceOf(IndexFunctionException.class);
        assertThat(indexer.size()).isZero();
        assertThat(indexer.listIndexFuncValues(IndexFunction.NAMESPACE)).isEmpty();
    }

    @Test
    void aDeletionSucceedsEvenWhenTheStoredObjectsIndexValuesCanNoLongerBeComputed() {
        AtomicBoolean broken = new AtomicBoolean();
        indexer.addIndexers(Map.of("team", object -> {
            if (broken.get()) {
                throw new IllegalStateException("index function broke");
            }
            return List.of(object.getMetadata().getLabels().get("team"));
        }));
        indexer.add(labelled("a", "x", "red"));
        indexer.add(labelled("a", "y", "red"));
        broken.set(true);
        indexer.delete(labelled("a", "x", "red"));
        assertThat(indexer.get("a/x")).isEmpty();
        assertThat(indexer.indexKeys("team", "red")).containsExactly("a/y");
    }

    @Test
    void aReplaceOrAnIndexAddedLaterThatFailsOnOneObjectChangesNothing() {
        indexer.add(labelled("a", "old", "red"));
        indexer.add(labelled("a", "poisoned", "poison"));
        assertThatThrownBy(() -> indexer.addIndexers(Map.of("team", byTeamRejectingPoison())))
                .isInstanceOf(IndexFunctionException.class);
        assertThat(indexer.indexNames()).containsExactly(IndexFunction.NAMESPACE);

        indexer.delete(labelled("a", "poisoned", "poison"));
        indexer.addIndexers(Map.of("team", byTeamRejectingPoison()));
        assertThatThrownBy(() -> indexer.replace(List.of(labelled("b", "new", "blue"), labelled("b", "bad", "poison"))))
                .isInstanceOf(IndexFunctionException.class);
        assertThat(indexer.listKeys()).containsExactly("a/old");
        assertThat(indexer.listIndexFuncValues("team")).containsExactly("red");
    }

    @Test
    void readersNeverSeeAnIndexEntryWithoutItsObjectWhileWritersChurn() throws Exception {
        indexer.addIndexers(Map.of("team", byTeam()));
        AtomicBoolean running = new AtomicBoolean(true);
        List<Throwable> failures = new CopyOnWriteArrayList<>();
        List<Thread> threads = new ArrayList<>();
        for (int w = 0; w < 4; w++) {
            int writer = w;
            threads.add(new Thread(() -> {
                for (int i = 0; i < 20_000; i++) {
                    String name = "o" + (i % 100);
                    ConfigMap object = labelled("ns" + writer, name, i % 2 == 0 ? "red" : "blue");
                    if (i % 7 == 0) {
                        indexer.delete(object);
                    } else {
                        indexer.update(object);
                    }
                }
            }));
        }
        for (int r = 0; r < 4; r++) {
            threads.add(new Thread(() -> {
                try {
                    while (running.get()) {
                        for (ConfigMap object : indexer.byIndex("team", "red")) {
                            assertThat(object).isNotNull();
                            assertThat(object.getMetadata().getLabels()).containsEntry("team", "red");
                        }
                        for (String key : indexer.indexKeys(IndexFunction.NAMESPACE, "ns1")) {
                            assertThat(key).startsWith("ns1/");
                        }
                    }
                } catch (Throwable e) {
                    failures.add(e);
                }
            }));
        }
        threads.forEach(Thread::start);
        for (int i = 0; i < 4; i++) {
            threads.get(i).join();
        }
        running.set(false);
        for (Thread thread : threads) {
            thread.join();
        }
        assertThat(failures).isEmpty();
        // The indexes agree with the content exactly once writers stop.
        for (String team : List.of("red", "blue")) {
            assertThat(indexer.indexKeys("team", team)).containsExactlyInAnyOrderElementsOf(indexer.list().stream()
                    .filter(o -> o.getMetadata().getLabels().get("team").equals(team)).map(Keys::of).toList());
        }
    }
}
