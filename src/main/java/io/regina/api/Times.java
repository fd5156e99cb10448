package io.regina.api;

import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.time.OffsetDateTime;

/** ISO-8601 UTC times on the wire, epoch milliseconds inside. */
final class Times {
    private Times() {
    }

    static String iso(long epochMillis) {
        return epochMillis <= 0 ? null : Instant.ofEpochMilli(epochMillis).toString();
    }

    /** Parses an ISO-8601 time (with Z or an offset) or epoch milliseconds; 400 names the field. */
    static long parse(String text, String field) {
        if (text == null || text.isEmpty()) {
            return 0;
        }
        try {
            if (text.chars().allMatch(Character::isDigit)) {
                return Long.parseLong(text);
            }
            return OffsetDateTime.parse(text).toInstant().toEpochMilli();
        } catch (DateTimeParseException | NumberFormatException e) {
            try {
                return Instant.parse(text).toEpochMilli();
            } catch (DateTimeParseException again) {
                throw ApiException.badRequest("'" + field + "' must be an ISO-8601 time such as "
                        + "2026-01-02T03:04:05Z, got '" + text + "'");
            }
        }
    }
}
