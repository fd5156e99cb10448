package io.regina.api;

/** The range check of a whole-number field: absent takes its default, outside the bounds is refused. */
final class Ranges {
    private Ranges() {
    }

    static int within(String field, Long value, int fallback, int min, int max) {
        long v = value == null ? fallback : value;
        if (v < min || v > max) {
            throw ApiException.badRequest("'" + field + "' must be between " + min + " and " + max);
        }
        return (int) v;
    }
}
