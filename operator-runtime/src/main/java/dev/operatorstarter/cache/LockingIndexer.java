package dev.operatorstarter.cache;

import io.fabric8.kubernetes.api.model.HasMetadata;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.locks.ReadWriteLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import org.jspecify.annotations.Nullable;

/**
 * {@link Indexer} guarded by one read-write lock: many readers, one writer at a time. A write
 * computes every index value it needs before it changes anything, so an index function that
 * throws leaves the store as it was.
 */
final class LockingIndexer<T extends HasMetadata> implements Indexer<T> {

    private final ReadWriteLock lock = new ReentrantReadWriteLock();
    private final Map<String, T> items = new HashMap<>();
    private final Map<String, IndexFunction<T>> functions = new HashMap<>();
    /** index name → index value → keys. */
    private final Map<String, Map<String, Set<String>>> indices = new HashMap<>();

    LockingIndexer(Map<String, IndexFunction<T>> indexers) {
        functions.putAll(indexers);
        indexers.keySet().forEach(name -> indices.put(name, new HashMap<>()));
    }

    @Override
    public void add(T object) {
        String key = Keys.of(object);
        lock.writeLock().lock();
        try {
            // Every value first: if a function fails, nothing has changed yet.
            Map<String, Collection<String>> after = valuesOf(functions, key, object);
            T old = items.put(key, object);
            reindex(key, old, after);
        } finally {
            lock.writeLock().unlock();
        }
    }

    @Override
    public void update(T object) {
        add(object);
    }

    @Override
    public void delete(T object) {
        String key = Keys.of(object);
        lock.writeLock().lock();
        try {
            T old = items.remove(key);
            if (old != null) {
                reindex(key, old, Map.of());
            }
        } finally {
            lock.writeLock().unlock();
        }
    }

    @Override
    public void replace(Collection<? extends T> objects) {
        lock.writeLock().lock();
        try {
            Map<String, T> fresh = new HashMap<>(Math.max(16, objects.size() * 4 / 3 + 1));
            Map<String, Map<String, Collection<String>>> values = new HashMap<>(fresh.size());
            for (T object : objects) {
                String key = Keys.of(object);
                fresh.put(key, object);
                values.put(key, valuesOf(functions, key, object));
            }
            items.clear();
            items.putAll(fresh);
            indices.values().forEach(Map::clear);
            values.forEach((key, byIndex) -> byIndex.forEach((name, after) -> addEntries(indices.get(name), key, after)));
        } finally {
            lock.writeLock().unlock();
        }
    }

    @Override
    public Optional<T> get(String key) {
        lock.readLock().lock();
        try {
            return Optional.ofNullable(items.get(key));
        } finally {
            lock.readLock().unlock();
        }
    }

    @Override
    public List<T> list() {
        lock.readLock().lock();
        try {
            return new ArrayList<>(items.values());
        } finally {
            lock.readLock().unlock();
        }
    }

    @Override
    public List<String> listKeys() {
        lock.readLock().lock();
        try {
            return new ArrayList<>(items.keySet());
        } finally {
            lock.readLock().unlock();
        }
    }

    @Override
    public int size() {
        lock.readLock().lock();
        try {
            return items.size();
        } finally {
            lock.readLock().unlock();
        }
    }

    @Override
    public void addIndexers(Map<String, IndexFunction<T>> indexers) {
        lock.writeLock().lock();
        try {
            for (String name : indexers.keySet()) {
                if (functions.containsKey(name)) {
                    throw new IllegalArgumentException("an index named " + name + " exists already");
                }
            }
            Map<String, Map<String, Set<String>>> built = new HashMap<>();
            indexers.keySet().forEach(name -> built.put(name, new HashMap<>()));
            items.forEach((key, object) -> valuesOf(indexers, key, object)
                    .forEach((name, values) -> addEntries(built.get(name), key, values)));
            functions.putAll(indexers);
            indices.putAll(built);
        } finally {
            lock.writeLock().unlock();
        }
    }

    @Override
    public Set<String> indexNames() {
        lock.readLock().lock();
        try {
            return Set.copyOf(functions.keySet());
        } finally {
            lock.readLock().unlock();
        }
    }

    @Override
    public List<T> byIndex(String indexName, String value) {
        lock.readLock().lock();
        try {
            Set<String> keys = index(indexName).get(value);
            if (keys == null) {
                return List.of();
            }
            List<T> result = new ArrayList<>(keys.size());
            keys.forEach(key -> result.add(items.get(key)));
            return result;
        } finally {
            lock.readLock().unlock();
        }
    }

    @Override
    public List<String> indexKeys(String indexName, String value) {
        lock.readLock().lock();
        try {
            Set<String> keys = index(indexName).get(value);
            return keys == null ? List.of() : new ArrayList<>(keys);
        } finally {
            lock.readLock().unlock();
        }
    }

    @Override
    public List<String> listIndexFuncValues(String indexName) {
        lock.readLock().lock();
        try {
            return new ArrayList<>(index(indexName).keySet());
        } finally {
            lock.readLock().unlock();
        }
    }

    @Override
    public List<T> index(String indexName, T object) {
        lock.readLock().lock();
        try {
            Map<String, Set<String>> index = index(indexName);
            Collection<String> values = valuesOf(indexName, functions.get(indexName), Keys.of(object), object);
            Set<String> keys = values.size() == 1 ? index.getOrDefault(values.iterator().next(), Set.of())
                    : unionOf(index, values);
            List<T> result = new ArrayList<>(keys.size());
            keys.forEach(key -> result.add(items.get(key)));
            return result;
        } finally {
            lock.readLock().unlock();
        }
    }

    private static Set<String> unionOf(Map<String, Set<String>> index, Collection<String> values) {
        Set<String> keys = new LinkedHashSet<>();
        values.forEach(value -> keys.addAll(index.getOrDefault(value, Set.of())));
        return keys;
    }

    private Map<String, Set<String>> index(String indexName) {
        Map<String, Set<String>> index = indices.get(indexName);
        if (index == null) {
            throw new IllegalArgumentException("no index named " + indexName + "; the indexes are " + functions.keySet());
        }
        return index;
    }

    /**
     * The values of {@code object} under each function, all computed before anything changes.
     *
     * @throws IndexFunctionException naming the first function that failed
     */
    private static <T> Map<String, Collection<String>> valuesOf(Map<String, IndexFunction<T>> functions, String key,
            T object) {
        Map<String, Collection<String>> values = new HashMap<>(Math.max(4, functions.size() * 2));
        functions.forEach((name, function) -> values.put(name, valuesOf(name, function, key, object)));
        return values;
    }

    private static <T> Collection<String> valuesOf(String name, IndexFunction<T> function, String key, T object) {
        Collection<String> values;
        try {
            values = function.values(object);
        } catch (RuntimeException e) {
            throw new IndexFunctionException(name, key, e);
        }
        if (values == null) {
            throw new IndexFunctionException(name, key, new NullPointerException("the index function returned null"));
        }
        return values;
    }

    /**
     * Moves {@code key}'s entries in every index from {@code old}'s values to {@code after} (empty
     * map: none). Cannot fail: when {@code old}'s values can no longer be computed (an impure
     * function), the key is removed from every value of that index instead.
     */
    private void reindex(String key, @Nullable T old, Map<String, Collection<String>> after) {
        functions.forEach((name, function) -> {
            Map<String, Set<String>> index = indices.get(name);
            Collection<String> now = after.getOrDefault(name, List.of());
            Collection<String> before;
            try {
                before = old == null ? List.of() : valuesOf(name, function, key, old);
            } catch (IndexFunctionException e) {
                index.values().removeIf(keys -> keys.remove(key) && keys.isEmpty());
                addEntries(index, key, now);
                return;
            }
            if (before.equals(now)) {
                return;
            }
            for (String value : before) {
                Set<String> keys = index.get(value);
                if (keys != null && keys.remove(key) && keys.isEmpty()) {
                    index.remove(value);
                }
            }
            addEntries(index, key, now);
        });
    }

    private static void addEntries(Map<String, Set<String>> index, String key, Collection<String> values) {
        for (String value : values) {
            index.computeIfAbsent(value, v -> new HashSet<>()).add(key);
        }
    }
}
