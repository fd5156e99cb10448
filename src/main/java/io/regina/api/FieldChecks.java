package io.regina.api;

import java.util.List;
import java.util.Objects;

/**
 * The checks a bound request field gets beyond its JSON type (which binding checks), with the texts
 * Queen's clients see: a required string, a whole number's range, a list of strings without nulls.
 */
final class FieldChecks {
    private FieldChecks() {
    }

    static String required(String value, String field) {
        if (value == null || value.isEmpty()) {
            throw ApiException.badRequest("'" + field + "' is required (a non-empty string)");
        }
        return value;
    }

    /** {@code value}, or {@code fallback} when absent, refused outside {@code [min, max]}. */
    static int within(String field, Long value, int fallback, int min, int max) {
        long v = value == null ? fallback : value;
        if (v < min || v > max) {
            throw ApiException.badRequest("'" + field + "' must be between " + min + " and " + max);
        }
        return (int) v;
    }

    /** The strings, empty when absent; a null among them is refused as a wrong type. */
    static List<String> strings(List<String> values, String field) {
        if (values == null) {
            return List.of();
        }
        if (values.stream().anyMatch(Objects::isNull)) {
            throw ApiException.badRequest("'" + field + "' must be an array of strings");
        }
        return values;
    }
}
