package dev.operatorstarter.cache;

import dev.operatorstarter.cache.LabelSelector.Operator;
import dev.operatorstarter.cache.LabelSelector.Requirement;
import java.util.ArrayList;
import java.util.List;

/**
 * The text form of a label selector, read by a small recursive-descent parser as apimachinery's
 * {@code labels.Parse} reads it (see {@link LabelSelector#parse}): what it accepts is accepted,
 * what it refuses is refused, with a message naming the selector, the problem and its position.
 * One instance reads one text once; not thread-safe.
 */
final class LabelSelectorParser {
    private final String text;
    private int position;

    LabelSelectorParser(String text) {
        this.text = text;
    }

    /** The requirements of the text, in the order written. */
    List<Requirement> requirements() {
        List<Requirement> requirements = new ArrayList<>();
        while (true) {
            requirements.add(requirement());
            skipSpaces();
            if (position == text.length()) {
                return requirements;
            }
            expect(',');
        }
    }

    private Requirement requirement() {
        skipSpaces();
        int start = position;
        if (peek() == '!') {
            position++;
            skipSpaces();
            String key = word();
            return checked(key, Operator.DOES_NOT_EXIST, List.of(), start);
        }
        String key = word();
        skipSpaces();
        if (position == text.length() || peek() == ',') {
            return checked(key, Operator.EXISTS, List.of(), start);
        }
        char c = peek();
        if (c == '=') {
            position++;
            if (peek() == '=') {
                position++;
            }
            return checked(key, Operator.EQUALS, List.of(value()), start);
        }
        if (c == '!') {
            // "!=" is one token: a '!' apart from its '=' is the does-not-exist prefix, which
            // cannot follow a key (apimachinery refuses "x ! = a" and "x! =a" alike)
            if (position + 1 >= text.length() || text.charAt(position + 1) != '=') {
                throw error("'!' after key \"" + key + "\" is not an operator; not-equals is '!=' written "
                        + "without a space, and '!' alone only comes before a key (!key)", position);
            }
            position += 2;
            return checked(key, Operator.NOT_EQUALS, List.of(value()), start);
        }
        if (c == '>' || c == '<') {
            position++;
            int at = position;
            String bound = value();
            try {
                Long.parseLong(bound);
            } catch (NumberFormatException e) {
                throw error("expected an integer after '" + c + "'", at);
            }
            return checked(key, c == '>' ? Operator.GREATER_THAN : Operator.LESS_THAN, List.of(bound), start);
        }
        int at = position;
        if (!isWordChar(c)) {
            throw error("expected =, ==, !=, in, notin, >, < or ',' after key \"" + key + "\"", at);
        }
        String word = word();
        Operator operator = switch (word) {
            case "in" -> Operator.IN;
            case "notin" -> Operator.NOT_IN;
            default -> throw error("expected =, ==, !=, in, notin, >, < or ',' after key \"" + key + "\"", at);
        };
        skipSpaces();
        expect('(');
        List<String> values = new ArrayList<>();
        skipSpaces();
        if (peek() == ')') {
            // "k in ()" is the set of the empty value, as apimachinery reads it.
            position++;
            return checked(key, operator, List.of(""), start);
        }
        while (true) {
            skipSpaces();
            values.add(value());
            skipSpaces();
            if (peek() == ')') {
                position++;
                return checked(key, operator, values, start);
            }
            if (peek() != ',') {
                throw error("expected ',' or ')' in the values of \"" + key + "\"", position);
            }
            position++;
        }
    }

    private Requirement checked(String key, Operator operator, List<String> values, int start) {
        try {
            return LabelSelector.requirement(key, operator, values, "at position " + start);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("invalid label selector \"" + text + "\": "
                    + e.getMessage().substring("invalid label selector: ".length()), e);
        }
    }

    private String word() {
        int start = position;
        while (position < text.length() && isWordChar(text.charAt(position))) {
            position++;
        }
        if (start == position) {
            throw error("expected a label key", start);
        }
        return text.substring(start, position);
    }

    private String value() {
        skipSpaces();
        int start = position;
        while (position < text.length() && isWordChar(text.charAt(position))) {
            position++;
        }
        return text.substring(start, position);
    }

    /**
     * Any character but whitespace and the operators' symbols, as in apimachinery's lexer: what
     * a key or a value may not hold (Unicode, control characters such as a vertical tab) is
     * read into it and then refused by the key or value check, which names it.
     */
    private static boolean isWordChar(char c) {
        return !isSpace(c) && "=!(),<>".indexOf(c) < 0;
    }

    /** Whitespace is only what apimachinery's lexer skips: space, tab, carriage return, line feed. */
    static boolean isSpace(char c) {
        return c == ' ' || c == '\t' || c == '\r' || c == '\n';
    }

    private char peek() {
        return position < text.length() ? text.charAt(position) : '\0';
    }

    private void expect(char c) {
        skipSpaces();
        if (peek() != c) {
            throw error("expected '" + c + "'", position);
        }
        position++;
    }

    private void skipSpaces() {
        while (position < text.length() && isSpace(text.charAt(position))) {
            position++;
        }
    }

    private IllegalArgumentException error(String problem, int at) {
        return new IllegalArgumentException("invalid label selector \"" + text + "\": " + problem + " at position " + at);
    }
}
