package dev.operatorstarter.controller;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.ConditionBuilder;
import java.time.Clock;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * {@code metav1.Condition} lists with apimachinery's {@code meta.SetStatusCondition} rules: one
 * condition per type; {@code lastTransitionTime} changes only when the status changes.
 */
public final class Conditions {

    private static final DateTimeFormatter RFC3339 = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ssX")
            .withZone(ZoneOffset.UTC);

    private Conditions() {
    }

    /**
     * Sets {@code condition} in {@code conditions} (which may be null) and returns the new list.
     * A condition of the same type keeps its {@code lastTransitionTime} unless the status changes;
     * a new or changed one gets {@code clock}'s time unless it carries its own.
     */
    public static List<Condition> set(List<Condition> conditions, Condition condition, Clock clock) {
        Objects.requireNonNull(condition.getType(), "a condition needs a type");
        Objects.requireNonNull(condition.getStatus(), "a condition needs a status");
        List<Condition> result = conditions == null ? new ArrayList<>() : new ArrayList<>(conditions);
        String now = RFC3339.format(clock.instant().truncatedTo(ChronoUnit.SECONDS));
        for (int i = 0; i < result.size(); i++) {
            Condition existing = result.get(i);
            if (condition.getType().equals(existing.getType())) {
                boolean transition = !condition.getStatus().equals(existing.getStatus());
                String time = transition ? (condition.getLastTransitionTime() != null
                        ? condition.getLastTransitionTime() : now) : existing.getLastTransitionTime();
                result.set(i, new ConditionBuilder(condition).withLastTransitionTime(time).build());
                return result;
            }
        }
        result.add(new ConditionBuilder(condition).withLastTransitionTime(condition.getLastTransitionTime() != null
                ? condition.getLastTransitionTime() : now).build());
        return result;
    }

    /** The condition of {@code type}, if present. */
    public static Optional<Condition> find(List<Condition> conditions, String type) {
        return conditions == null ? Optional.empty()
                : conditions.stream().filter(c -> type.equals(c.getType())).findFirst();
    }

    /** True when the condition of {@code type} has status {@code True}. */
    public static boolean isTrue(List<Condition> conditions, String type) {
        return find(conditions, type).map(c -> "True".equals(c.getStatus())).orElse(false);
    }
}
