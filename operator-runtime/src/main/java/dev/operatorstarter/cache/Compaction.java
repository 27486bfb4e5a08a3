package dev.operatorstarter.cache;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Makes a freshly decoded fabric8 model object smaller without changing what it reads as: every
 * string that repeats across objects (anywhere in the object, not only its metadata) and every
 * boxed number become one shared instance; lists and maps become exactly sized read-only
 * ones ({@link CompactList}, {@link CompactMap}, {@link HashedCompactMap} when large), which copy
 * into writable ones at every depth and serialize as plain ones, the empty ones a single shared instance (a Pod
 * holds dozens of empty lists and {@code additionalProperties} maps); lists of strings and maps of
 * strings that repeat whole (the labels of a ReplicaSet's Pods, a container's arguments) become
 * one shared instance too. Model objects themselves are never shared: they are mutable.
 *
 * <p>Whether a field's strings repeat is learnt per field: after {@value Site#SAMPLES} strings, a
 * field whose values were found in the pool less than a quarter of the time (Pod IPs, container
 * IDs) stops being pooled, so unique values do not crowd the pool. Names, UIDs, resourceVersions
 * and timestamps of {@code metadata} are known to be unique and never pooled.
 *
 * <p>Only classes of the fabric8 model packages are walked; of any other {@link HasMetadata} (a
 * custom resource class) only the metadata, so user classes are never touched by reflection. The
 * plan of each class (its fields) is computed once. Thread-safe: informers share one instance.
 */
final class Compaction {

    private static final String MODEL_PACKAGE = "io.fabric8.kubernetes.api.model";
    private static final int MAX_DEPTH = 64;
    /** Fields of {@code metadata} whose values are unique to their object. */
    private static final Set<String> UNIQUE_METADATA = Set.of("name", "uid", "resourceVersion", "selfLink",
            "creationTimestamp", "deletionTimestamp");

    private static final ClassValue<Slot[]> PLANS = new ClassValue<>() {
        @Override
        protected Slot[] computeValue(Class<?> type) {
            return plan(type);
        }
    };
    private static final ClassValue<Boolean> MODELS = new ClassValue<>() {
        @Override
        protected Boolean computeValue(Class<?> type) {
            return type.getName().startsWith(MODEL_PACKAGE);
        }
    };
    private static final Object[] NOTHING = new Object[0];

    private final Interner pool;

    Compaction(Interner pool) {
        this.pool = pool;
    }

    /** Compacts {@code object} in place and returns it. */
    <T> T apply(T object) {
        if (object == null) {
            return null;
        }
        if (isModel(object.getClass())) {
            visit(object, 0);
        } else if (object instanceof HasMetadata resource && resource.getMetadata() != null) {
            visit(resource.getMetadata(), 1);
        }
        return object;
    }

    /** One reference field of a model class, and what was learnt about its values. */
    private record Slot(Field field, Site site, boolean takesList, boolean takesMap) {
    }

    private void visit(Object model, int depth) {
        for (Slot slot : PLANS.get(model.getClass())) {
            try {
                Object value = slot.field().get(model);
                if (value == null) {
                    continue;
                }
                Object compacted = compact(value, slot.site(), slot.takesList(), slot.takesMap(), depth);
                if (compacted != value) {
                    slot.field().set(model, compacted);
                }
            } catch (IllegalAccessException e) {
                // not reachable: the plan keeps only fields it could open
            }
        }
    }

    /**
     * {@code value} or its compact replacement; lists and maps are replaced only where the field
     * (or the collection) holding them takes the compact forms.
     */
    private Object compact(Object value, Site site, boolean takesList, boolean takesMap, int depth) {
        if (value instanceof String string) {
            return share(string, site.values);
        }
        if (value instanceof Integer || value instanceof Long) {
            return pool.share(value);
        }
        if (value instanceof List<?> list) {
            return takesList ? compactList(list, site, depth) : value;
        }
        if (value instanceof Map<?, ?> map) {
            return takesMap ? compactMap(map, site, depth) : value;
        }
        if (depth < MAX_DEPTH && isModel(value.getClass())) {
            visit(value, depth + 1);
        }
        return value;
    }

    private Object compactList(List<?> list, Site site, int depth) {
        if (list instanceof CompactList<?>) {
            return list;
        }
        if (list.isEmpty()) {
            return CompactList.wrap(NOTHING);
        }
        Object[] elements = list.toArray();
        boolean strings = true;
        for (int i = 0; i < elements.length; i++) {
            if (elements[i] != null) {
                elements[i] = compact(elements[i], site, true, true, depth + 1);
            }
            strings &= elements[i] instanceof String;
        }
        CompactList<?> compacted = CompactList.wrap(elements);
        return strings ? shareWhole(compacted, site) : compacted;
    }

    private Object compactMap(Map<?, ?> map, Site site, int depth) {
        if (map.isEmpty()) {
            return CompactMap.wrap(NOTHING);
        }
        if (map instanceof CompactMap<?, ?> || map instanceof HashedCompactMap<?, ?>) {
            return map; // compacted already
        }
        Object[] slots = new Object[map.size() * 2];
        boolean strings = true;
        int i = 0;
        for (Map.Entry<?, ?> entry : map.entrySet()) {
            Object key = entry.getKey();
            Object value = entry.getValue();
            slots[i++] = key instanceof String s ? share(s, site.keys) : key;
            value = value == null ? null : compact(value, site, true, true, depth + 1);
            slots[i++] = value;
            strings &= value instanceof String;
        }
        if (map.size() > CompactMap.MAX_SIZE) {
            LinkedHashMap<Object, Object> hashed = new LinkedHashMap<>((int) (map.size() / 0.75f) + 1);
            for (int k = 0; k < slots.length; k += 2) {
                hashed.put(slots[k], slots[k + 1]);
            }
            return HashedCompactMap.wrap(hashed);
        }
        CompactMap<?, ?> compacted = CompactMap.wrap(slots);
        return strings ? shareWhole(compacted, site) : compacted;
    }

    private String share(String value, Site.Stats stats) {
        if (!stats.sharing() || !Interner.worthSharing(value)) {
            return value;
        }
        String shared = pool.share(value);
        stats.record(shared != value);
        return shared;
    }

    private <C> C shareWhole(C collection, Site site) {
        if (!site.wholes.sharing()) {
            return collection;
        }
        C shared = pool.share(collection);
        site.wholes.record(shared != collection);
        return shared;
    }

    private static boolean isModel(Class<?> type) {
        return MODELS.get(type);
    }

    private static Slot[] plan(Class<?> type) {
        List<Slot> slots = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        for (Class<?> c = type; c != null && c != Object.class; c = c.getSuperclass()) {
            if (!isModel(c)) {
                continue;
            }
            for (Field field : c.getDeclaredFields()) {
                int modifiers = field.getModifiers();
                if (Modifier.isStatic(modifiers) || Modifier.isFinal(modifiers) || field.getType().isPrimitive()
                        || field.getType().isEnum() || !seen.add(field.getName())) {
                    continue;
                }
                try {
                    field.setAccessible(true);
                } catch (RuntimeException e) {
                    continue; // a module that does not open the class: leave the field alone
                }
                boolean unique = c == ObjectMeta.class && UNIQUE_METADATA.contains(field.getName());
                slots.add(new Slot(field, new Site(unique), field.getType().isAssignableFrom(CompactList.class),
                        field.getType().isAssignableFrom(CompactMap.class)));
            }
        }
        return slots.toArray(new Slot[0]);
    }

    /** What was learnt about the values of one field: whether they repeat enough to be pooled. */
    static final class Site {

        static final int SAMPLES = 512;

        final Stats values;
        final Stats keys = new Stats(false);
        final Stats wholes = new Stats(false);

        Site(boolean unique) {
            this.values = new Stats(unique);
        }

        /** Counts pool hits for the first {@value #SAMPLES} values, then decides once. */
        static final class Stats {
            private final AtomicInteger seen = new AtomicInteger();
            private final AtomicInteger hits = new AtomicInteger();
            /** 0 while sampling, 1 pooled, -1 not pooled. */
            private volatile int verdict;

            Stats(boolean unique) {
                this.verdict = unique ? -1 : 0;
            }

            boolean sharing() {
                return verdict >= 0;
            }

            void record(boolean hit) {
                if (verdict != 0) {
                    return;
                }
                int hitCount = hit ? hits.incrementAndGet() : hits.get();
                if (seen.incrementAndGet() == SAMPLES) {
                    verdict = hitCount * 4 >= SAMPLES ? 1 : -1;
                }
            }
        }
    }
}
