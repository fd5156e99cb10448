package io.regina.api;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDate;
import java.time.format.DateTimeParseException;
import java.time.OffsetDateTime;

/** ISO-8601 UTC times on the wire, epoch milliseconds inside. */
final class Times {
    private Times() {
    }

    /** Four-digit years: what {@link Instant#toString} writes without a sign. */
    private static final long END_MILLIS = 253_402_300_800_000L; // 10000-01-01T00:00:00Z
    private static final long MILLIS_PER_DAY = 86_400_000L;

    /**
     * What {@code Instant.ofEpochMilli(epochMillis).toString()} gives (milliseconds only when not zero), null for
     * 0 and before. Written by hand: a pop answers a time per message, and {@code Instant.toString} went through
     * a {@code DateTimeFormatter} and a {@code StringBuilder} for each, 1% of the event loop (issue 8).
     */
    static String iso(long epochMillis) {
        if (epochMillis <= 0) {
            return null;
        }
        if (epochMillis >= END_MILLIS) {
            return Instant.ofEpochMilli(epochMillis).toString();
        }
        LocalDate date = LocalDate.ofEpochDay(epochMillis / MILLIS_PER_DAY);
        int millisOfDay = (int) (epochMillis % MILLIS_PER_DAY);
        int year = date.getYear();
        int month = date.getMonthValue();
        int day = date.getDayOfMonth();
        int millis = millisOfDay % 1000;
        int seconds = millisOfDay / 1000;
        byte[] text = new byte[millis == 0 ? 20 : 24];
        digits(text, 0, year, 4);
        text[4] = '-';
        digits(text, 5, month, 2);
        text[7] = '-';
        digits(text, 8, day, 2);
        text[10] = 'T';
        digits(text, 11, seconds / 3600, 2);
        text[13] = ':';
        digits(text, 14, seconds / 60 % 60, 2);
        text[16] = ':';
        digits(text, 17, seconds % 60, 2);
        if (millis != 0) {
            text[19] = '.';
            digits(text, 20, millis, 3);
        }
        text[text.length - 1] = 'Z';
        return new String(text, StandardCharsets.ISO_8859_1);
    }

    private static void digits(byte[] text, int at, int value, int width) {
        for (int i = at + width - 1; i >= at; i--) {
            text[i] = (byte) ('0' + value % 10);
            value /= 10;
        }
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
