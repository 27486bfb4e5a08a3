package dev.operatorstarter.test.faults;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * Which requests an {@link Injection} applies to: by method, by path (without the query), whether
 * the request is a watch, and by query parameters. Start from {@link #all()}, {@link #pathPrefix(String)} or
 * {@link #pathMatching(String)} and narrow with the {@code with}-style methods, for example
 * {@code RequestMatcher.pathPrefix("/api/v1/namespaces/x/configmaps").method("GET").excludingWatches()}
 * for the lists (and gets) of that namespace's config maps.
 *
 * <p>A request is a watch when its query has {@code watch=true} (or another true value the API
 * server accepts: {@code 1}, {@code t}, {@code True}...) or its path is the old
 * {@code /api/v1/watch/...} or {@code /apis/<group>/<version>/watch/...} form. Note that a path
 * prefix written for {@code /api/v1/namespaces/...} does not match the old watch form.
 *
 * @param methods the methods matched, upper case; empty for any
 * @param path the regular expression the whole path must match
 * @param watches whether watches, other requests or both are matched
 * @param query parameters the query must have, name to value; empty for any query
 */
public record RequestMatcher(Set<String> methods, Pattern path, Watches watches, Map<String, String> query) {

    private static final Pattern OLD_WATCH_PATH = Pattern.compile("^(/api/v1|/apis/[^/]+/[^/]+)/watch/.*");
    private static final Set<String> TRUE = Set.of("1", "t", "T", "TRUE", "true", "True");

    /** Watches or not. */
    public enum Watches {
        /** Watches and other requests. */
        INCLUDED,
        /** Only watches. */
        ONLY,
        /** Only requests that are not watches. */
        EXCLUDED
    }

    public RequestMatcher {
        Objects.requireNonNull(path, "path");
        Objects.requireNonNull(watches, "watches");
        methods = methods.stream().map(method -> method.toUpperCase(Locale.ROOT)).collect(Collectors.toUnmodifiableSet());
        query = Map.copyOf(query);
    }

    /** A matcher that does not look at the query. */
    public RequestMatcher(Set<String> methods, Pattern path, Watches watches) {
        this(methods, path, watches, Map.of());
    }

    /** Every request. */
    public static RequestMatcher all() {
        return new RequestMatcher(Set.of(), Pattern.compile(".*"), Watches.INCLUDED);
    }

    /** Requests whose path starts with {@code prefix}, taken literally. */
    public static RequestMatcher pathPrefix(String prefix) {
        return new RequestMatcher(Set.of(), Pattern.compile(Pattern.quote(prefix) + ".*"), Watches.INCLUDED);
    }

    /** Requests whose whole path matches the regular expression {@code regex}. */
    public static RequestMatcher pathMatching(String regex) {
        return new RequestMatcher(Set.of(), Pattern.compile(regex), Watches.INCLUDED);
    }

    /** The same, for these methods only ({@code GET}, {@code POST}...). */
    public RequestMatcher method(String... methods) {
        return new RequestMatcher(Arrays.stream(methods).collect(Collectors.toSet()), path, watches, query);
    }

    /** The same, for watches only. */
    public RequestMatcher watchesOnly() {
        return new RequestMatcher(methods, path, Watches.ONLY, query);
    }

    /** The same, for requests that are not watches. */
    public RequestMatcher excludingWatches() {
        return new RequestMatcher(methods, path, Watches.EXCLUDED, query);
    }

    /**
     * The same, for requests whose query has parameter {@code name} with exactly {@code value}
     * (compared after URL decoding both name and value); adds to the parameters required before.
     */
    public RequestMatcher queryParameter(String name, String value) {
        Map<String, String> required = new LinkedHashMap<>(query);
        required.put(Objects.requireNonNull(name, "name"), Objects.requireNonNull(value, "value"));
        return new RequestMatcher(methods, path, watches, required);
    }

    /**
     * Whether this matches a request.
     *
     * @param method the request's method
     * @param target the request target as sent, a path with an optional query
     */
    public boolean matches(String method, String target) {
        if (!methods.isEmpty() && !methods.contains(method.toUpperCase(Locale.ROOT))) {
            return false;
        }
        if (!path.matcher(path(target)).matches()) {
            return false;
        }
        if (!query.isEmpty() && !hasQuery(target)) {
            return false;
        }
        return switch (watches) {
            case INCLUDED -> true;
            case ONLY -> isWatch(target);
            case EXCLUDED -> !isWatch(target);
        };
    }

    /** Whether the request target is a watch (see the class documentation). */
    public static boolean isWatch(String target) {
        if (OLD_WATCH_PATH.matcher(path(target)).matches()) {
            return true;
        }
        int query = target.indexOf('?');
        if (query < 0) {
            return false;
        }
        for (String parameter : target.substring(query + 1).split("&")) {
            if (parameter.startsWith("watch=") && TRUE.contains(parameter.substring("watch=".length()))) {
                return true;
            }
        }
        return false;
    }

    private boolean hasQuery(String target) {
        int start = target.indexOf('?');
        if (start < 0) {
            return false;
        }
        Map<String, List<String>> parameters = new HashMap<>();
        for (String parameter : target.substring(start + 1).split("&")) {
            int equals = parameter.indexOf('=');
            String name = decode(equals < 0 ? parameter : parameter.substring(0, equals));
            String value = equals < 0 ? "" : decode(parameter.substring(equals + 1));
            parameters.computeIfAbsent(name, n -> new ArrayList<>()).add(value);
        }
        return query.entrySet().stream().allMatch(required -> parameters.getOrDefault(required.getKey(), List.of())
                .contains(required.getValue()));
    }

    private static String decode(String text) {
        try {
            return URLDecoder.decode(text, StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            return text; // not valid percent-encoding: compare it as sent
        }
    }

    private static String path(String target) {
        int query = target.indexOf('?');
        return query < 0 ? target : target.substring(0, query);
    }

    @Override
    public String toString() {
        return "RequestMatcher[" + (methods.isEmpty() ? "any method" : String.join(",", methods.stream().sorted().toList()))
                + ", path " + path.pattern() + ", watches " + watches.name().toLowerCase(Locale.ROOT)
                + (query.isEmpty() ? "" : ", query " + query) + "]";
    }
}
