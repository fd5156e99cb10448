package io.regina.dashboard;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

/** How the templates show times, ages and counts ({@code ${fmt.…}}). */
public final class Format {
    static final Format INSTANCE = new Format();
    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss'Z'")
            .withZone(ZoneOffset.UTC);
    private static final DateTimeFormatter INPUT = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss")
            .withZone(ZoneOffset.UTC);

    /** Epoch ms as UTC, or a dash for 0. */
    public String time(long epochMs) {
        return epochMs <= 0 ? "—" : TIME.format(Instant.ofEpochMilli(epochMs));
    }

    /** Epoch ms in the form a {@code datetime-local} input takes, or empty for 0. */
    public String input(long epochMs) {
        return epochMs <= 0 ? "" : INPUT.format(Instant.ofEpochMilli(epochMs));
    }

    /** How long ago {@code epochMs} was, relative to {@code now}, e.g. "3m 12s". */
    public String age(long epochMs, long now) {
        if (epochMs <= 0) {
            return "—";
        }
        Duration age = Duration.ofMillis(Math.max(0, now - epochMs));
        if (age.toHours() > 0) {
            return age.toHours() + "h " + age.toMinutesPart() + "m";
        }
        if (age.toMinutes() > 0) {
            return age.toMinutes() + "m " + age.toSecondsPart() + "s";
        }
        return age.toSeconds() + "s";
    }

    /** A payload cut for a table cell. */
    public String abbreviate(String text, int max) {
        if (text == null) {
            return "null";
        }
        return text.length() <= max ? text : text.substring(0, max) + "…";
    }

    public long now() {
        return System.currentTimeMillis();
    }
}
