package dev.operatorstarter.test.internal;

import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * The harness's settings: a system property wins over its environment variable; blank counts as
 * unset. Not API.
 */
public final class Settings {

    private Settings() {
    }

    /** The system property {@code property}, else {@code variable} from {@code environment}, else {@code null}. */
    public static @Nullable String get(String property, String variable, Map<String, String> environment) {
        String value = System.getProperty(property);
        if (value == null || value.isBlank()) {
            value = environment.get(variable);
        }
        return value == null || value.isBlank() ? null : value.trim();
    }
}
