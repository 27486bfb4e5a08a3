package dev.operatorstarter.cache;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * A parsed label selector, matched against an object's labels (apimachinery's {@code labels.Selector}).
 * Immutable and thread-safe; equal when the requirements are equal, whatever order or spacing the
 * text had (a requirement written twice counts once; {@code a in (x)} is {@code a=x} and
 * {@code a notin (x)} is {@code a!=x}), and {@link #toString()} gives the canonical text.
 * {@link #and} combines two selectors.
 */
public final class LabelSelector {

    /** One requirement on one label. */
    enum Operator {
        EQUALS("="), NOT_EQUALS("!="), IN(" in "), NOT_IN(" notin "), EXISTS(""), DOES_NOT_EXIST("!"),
        GREATER_THAN(">"), LESS_THAN("<");

        final String text;

        Operator(String text) {
            this.text = text;
        }
    }

    record Requirement(String key, Operator operator, SortedSet<String> values) {

        boolean matches(Map<String, String> labels) {
            String value = labels.get(key);
            return switch (operator) {
                case EQUALS, IN -> value != null && values.contains(value);
                case NOT_EQUALS, NOT_IN -> value == null || !values.contains(value);
                case EXISTS -> value != null;
                case DOES_NOT_EXIST -> value == null;
                case GREATER_THAN, LESS_THAN -> value != null && compare(value);
            };
        }

        private boolean compare(String value) {
            long actual;
            try {
                actual = Long.parseLong(value);
            } catch (NumberFormatException e) {
                return false;
            }
            long bound = Long.parseLong(values.first());
            return operator == Operator.GREATER_THAN ? actual > bound : actual < bound;
        }

        @Override
        public String toString() {
            return switch (operator) {
                case EXISTS -> key;
                case DOES_NOT_EXIST -> "!" + key;
                case IN, NOT_IN -> key + operator.text + "(" + String.join(",", values) + ")";
                default -> key + operator.text + values.first();
            };
        }
    }

    private static final LabelSelector EVERYTHING = new LabelSelector(List.of());
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?");
    /** A DNS subdomain in lower case (RFC 1123): a label key's prefix, a resource's {@code plural[.group]}. */
    static final Pattern DNS_SUBDOMAIN = Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*");

    private final List<Requirement> requirements;

    private LabelSelector(List<Requirement> requirements) {
        List<Requirement> sorted = new ArrayList<>(new LinkedHashSet<>(requirements)); // a repeated requirement once
        sorted.sort(Comparator.comparing(Requirement::key).thenComparing(Requirement::operator)
                .thenComparing(requirement -> String.join(",", requirement.values())));
        this.requirements = List.copyOf(sorted);
    }

    /** Matches every object. */
    public static LabelSelector everything() {
        return EVERYTHING;
    }

    /**
     * Parses the text form: comma-separated {@code k=v}, {@code k==v}, {@code k!=v},
     * {@code k in (a,b)}, {@code k notin (a,b)}, {@code k}, {@code !k}, {@code k>n}, {@code k<n}.
     * It accepts what apimachinery's {@code labels.Parse} accepts and refuses what it refuses:
     * whitespace is only space, tab, carriage return and line feed (not a vertical tab nor Unicode
     * spaces); {@code !=} is one token, and a {@code !} on its own only starts {@code !k}. Text of
     * whitespace alone matches everything.
     *
     * @throws IllegalArgumentException naming the selector, the problem and its position
     */
    public static LabelSelector parse(@Nullable String selector) {
        if (selector == null || selector.chars().allMatch(c -> LabelSelectorParser.isSpace((char) c))) {
            return EVERYTHING;
        }
        return new LabelSelector(new LabelSelectorParser(selector).requirements());
    }

    /**
     * The selector of a {@code metav1.LabelSelector} (matchLabels and matchExpressions). Null or
     * empty matches everything. Note: apimachinery's {@code LabelSelectorAsSelector(nil)} matches
     * nothing; callers for which a missing selector must select nothing check for null first.
     */
    public static LabelSelector from(io.fabric8.kubernetes.api.model.@Nullable LabelSelector selector) {
        if (selector == null) {
            return EVERYTHING;
        }
        List<Requirement> requirements = new ArrayList<>();
        if (selector.getMatchLabels() != null) {
            selector.getMatchLabels().forEach((key, value) -> {
                if (value == null) {
                    throw new IllegalArgumentException("invalid label selector: matchLabels[" + key + "] has no value");
                }
                requirements.add(requirement(key, Operator.EQUALS, List.of(value), "matchLabels"));
            });
        }
        if (selector.getMatchExpressions() != null) {
            for (var expression : selector.getMatchExpressions()) {
                List<String> values = expression.getValues() == null ? List.of() : expression.getValues();
                String where = "matchExpressions[" + expression.getKey() + "]";
                Operator operator = switch (Objects.requireNonNullElse(expression.getOperator(), "")) {
                    case "In" -> Operator.IN;
                    case "NotIn" -> Operator.NOT_IN;
                    case "Exists" -> Operator.EXISTS;
                    case "DoesNotExist" -> Operator.DOES_NOT_EXIST;
                    default -> throw new IllegalArgumentException("invalid label selector: " + where
                            + " has operator \"" + expression.getOperator() + "\"; expected In, NotIn, Exists or DoesNotExist");
                };
                requirements.add(requirement(expression.getKey(), operator, values, where));
            }
        }
        return requirements.isEmpty() ? EVERYTHING : new LabelSelector(requirements);
    }

    /**
     * One requirement, checked: a valid key, values as the operator needs them, each a valid label
     * value; {@code where} names it in the message.
     */
    static Requirement requirement(String key, Operator operator, List<String> values, String where) {
        String keyProblem = keyProblem(key);
        if (keyProblem != null) {
            throw new IllegalArgumentException("invalid label selector: " + where + ": " + keyProblem);
        }
        boolean needsValues = operator == Operator.IN || operator == Operator.NOT_IN;
        boolean takesNone = operator == Operator.EXISTS || operator == Operator.DOES_NOT_EXIST;
        if (needsValues && values.isEmpty()) {
            throw new IllegalArgumentException("invalid label selector: " + where + ": " + operator + " needs values");
        }
        if (takesNone && !values.isEmpty()) {
            throw new IllegalArgumentException("invalid label selector: " + where + ": " + operator + " takes no values");
        }
        for (String value : values) {
            String problem = valueProblem(value);
            if (problem != null) {
                throw new IllegalArgumentException("invalid label selector: " + where + ": " + problem);
            }
        }
        TreeSet<String> distinct = new TreeSet<>(values);
        if (distinct.size() == 1 && (operator == Operator.IN || operator == Operator.NOT_IN)) {
            // one form per meaning: "a in (x)" is "a=x" and "a notin (x)" is "a!=x" (both match a missing a),
            // so equal selectors share one informer and a cache of one answers reads written the other way
            operator = operator == Operator.IN ? Operator.EQUALS : Operator.NOT_EQUALS;
        }
        return new Requirement(key, operator, distinct);
    }

    /** True when the labels (null: none) meet every requirement. */
    public boolean matches(@Nullable Map<String, String> labels) {
        Map<String, String> actual = labels == null ? Map.of() : labels;
        for (Requirement requirement : requirements) {
            if (!requirement.matches(actual)) {
                return false;
            }
        }
        return true;
    }

    /**
     * The selector that matches what both this one and {@code other} match: every requirement of
     * each (apimachinery's {@code Selector.Add}, for whole selectors). A requirement the two share
     * counts once, so {@code s.and(s)} equals {@code s}; the result is canonical like any other
     * selector, so {@code a.and(b)} equals {@code b.and(a)}. Requirements on the same key are
     * kept side by side, as the API server reads {@code a=x,a!=y}: both must hold.
     */
    public LabelSelector and(LabelSelector other) {
        if (other.isEverything()) {
            return this;
        }
        if (isEverything()) {
            return other;
        }
        List<Requirement> both = new ArrayList<>(requirements);
        both.addAll(other.requirements);
        return new LabelSelector(both);
    }

    /** True when this selector has no requirement. */
    public boolean isEverything() {
        return requirements.isEmpty();
    }

    /**
     * True when this selector has every requirement of {@code broader}, so that every object this
     * one matches, {@code broader} matches too (a cache selected by {@code broader} holds them all).
     */
    boolean hasEveryRequirementOf(LabelSelector broader) {
        return requirements.containsAll(broader.requirements);
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof LabelSelector selector && selector.requirements.equals(requirements);
    }

    @Override
    public int hashCode() {
        return requirements.hashCode();
    }

    /** The canonical text: requirements sorted by key, as the API server's own rendering does. */
    @Override
    public String toString() {
        StringBuilder text = new StringBuilder();
        for (Requirement requirement : requirements) {
            text.append(text.length() == 0 ? "" : ",").append(requirement);
        }
        return text.toString();
    }

    private static @Nullable String keyProblem(@Nullable String key) {
        if (key == null || key.isEmpty()) {
            return "the key is empty";
        }
        int slash = key.indexOf('/');
        String name = slash < 0 ? key : key.substring(slash + 1);
        if (slash >= 0) {
            String prefix = key.substring(0, slash);
            if (prefix.isEmpty() || prefix.length() > 253 || !DNS_SUBDOMAIN.matcher(prefix).matches()) {
                return "key \"" + key + "\" has an invalid prefix (a DNS subdomain of at most 253 characters)";
            }
        }
        if (name.length() > 63 || !NAME.matcher(name).matches()) {
            return "key \"" + key + "\" is not a valid label name (at most 63 characters: letters, digits, '-', '_', '.',"
                    + " starting and ending with a letter or digit)";
        }
        return null;
    }

    private static @Nullable String valueProblem(String value) {
        if (value.isEmpty() || value.length() <= 63 && NAME.matcher(value).matches()) {
            return null;
        }
        return "value \"" + value + "\" is not a valid label value (at most 63 characters: letters, digits, '-', '_',"
                + " '.', starting and ending with a letter or digit)";
    }
}
