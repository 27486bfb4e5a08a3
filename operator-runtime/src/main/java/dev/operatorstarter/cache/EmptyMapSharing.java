package dev.operatorstarter.cache;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Collection;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Replaces the empty {@code additionalProperties} map that every fabric8 model object carries
 * (a {@code LinkedHashMap} allocated by its field initializer, about 56 bytes each, some 45 per
 * Pod) with one shared immutable empty map. Walks the object's model fields; the plan of each
 * class (which fields to visit) is computed once. Objects outside the fabric8 model packages are
 * left alone, and so is any map that is not empty.
 */
final class EmptyMapSharing {

    private static final String MODEL_PACKAGE = "io.fabric8.kubernetes.api.model";
    private static final Map<String, Object> EMPTY = Map.of();

    /** The fields of one model class worth visiting. */
    private record Plan(Field additionalProperties, List<Field> children) {
    }

    private static final ClassValue<Plan> PLANS = new ClassValue<>() {
        @Override
        protected Plan computeValue(Class<?> type) {
            return plan(type);
        }
    };

    private EmptyMapSharing() {
    }

    /** Shares the empty maps of {@code object} and of every model object inside it. */
    static void apply(Object object) {
        visit(object, 0);
    }

    private static void visit(Object object, int depth) {
        if (object == null || depth > 64 || !isModel(object.getClass())) {
            return;
        }
        Plan plan = PLANS.get(object.getClass());
        if (plan == null) {
            return;
        }
        try {
            if (plan.additionalProperties() != null) {
                Object map = plan.additionalProperties().get(object);
                if (map != null && map.getClass() == LinkedHashMap.class && ((Map<?, ?>) map).isEmpty()) {
                    plan.additionalProperties().set(object, EMPTY);
                }
            }
            for (Field child : plan.children()) {
                Object value = child.get(object);
                if (value instanceof Collection<?> collection) {
                    for (Object element : collection) {
                        visit(element, depth + 1);
                    }
                } else if (value instanceof Map<?, ?> map) {
                    for (Object element : map.values()) {
                        visit(element, depth + 1);
                    }
                } else {
                    visit(value, depth + 1);
                }
            }
        } catch (IllegalAccessException e) {
            // Not reachable once the plan made the fields accessible; leave the object as it is.
        }
    }

    private static boolean isModel(Class<?> type) {
        return type.getName().startsWith(MODEL_PACKAGE);
    }

    private static Plan plan(Class<?> type) {
        Field additional = null;
        List<Field> children = new ArrayList<>();
        Set<String> seen = java.util.Collections.newSetFromMap(new IdentityHashMap<>());
        for (Class<?> c = type; c != null && c != Object.class; c = c.getSuperclass()) {
            for (Field field : c.getDeclaredFields()) {
                if (Modifier.isStatic(field.getModifiers()) || !seen.add(field.getName().intern())) {
                    continue;
                }
                Class<?> fieldType = field.getType();
                boolean additionalProperties = field.getName().equals("additionalProperties")
                        && Map.class.isAssignableFrom(fieldType);
                boolean child = !additionalProperties && (isModel(fieldType) || Collection.class.isAssignableFrom(fieldType)
                        || Map.class.isAssignableFrom(fieldType));
                if (!additionalProperties && !child) {
                    continue;
                }
                try {
                    field.setAccessible(true);
                } catch (RuntimeException e) {
                    continue; // a module that does not open the class: skip the field
                }
                if (additionalProperties) {
                    additional = field;
                } else {
                    children.add(field);
                }
            }
        }
        return new Plan(additional, List.copyOf(children));
    }
}
