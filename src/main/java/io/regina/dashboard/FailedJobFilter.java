package io.regina.dashboard;

import io.regina.queue.FailedJobSelector;
import org.springframework.util.MultiValueMap;
import org.springframework.web.util.UriComponentsBuilder;

import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;

/**
 * The failed-jobs search as the page and its forms carry it: queue, text in error or payload, and a
 * failedAt range (UTC, inclusive; 0 for open).
 *
 * @param queue null for every queue
 * @param text  null for no text search
 */
public record FailedJobFilter(String queue, String text, long from, long to) {

    static FailedJobFilter of(String queue, String text, String from, String to) {
        return new FailedJobFilter(blankToNull(queue), text == null || text.isEmpty() ? null : text, time(from), time(to));
    }

    static FailedJobFilter of(MultiValueMap<String, String> form) {
        return of(form.getFirst("queue"), form.getFirst("q"), form.getFirst("from"), form.getFirst("to"));
    }

    /** The same search, bounded to rows that failed at or before {@code asOf} (a later row never matches). */
    FailedJobFilter asOf(long asOf) {
        return new FailedJobFilter(queue, text, from, to > 0 && to < asOf ? to : asOf);
    }

    FailedJobSelector.Search selector() {
        return new FailedJobSelector.Search(queue, text, from, to);
    }

    public boolean isEmpty() {
        return queue == null && text == null && from == 0 && to == 0;
    }

    /** The list page showing this search. */
    public String listUrl() {
        UriComponentsBuilder url = UriComponentsBuilder.fromPath(DashboardRoutes.FAILED_JOBS);
        if (queue != null) {
            url.queryParam("queue", queue);
        }
        if (text != null) {
            url.queryParam("q", text);
        }
        if (from > 0) {
            url.queryParam("from", Format.INSTANCE.input(from));
        }
        if (to > 0) {
            url.queryParam("to", Format.INSTANCE.input(to));
        }
        return url.encode().build().toUriString();
    }

    /** Words for a notice or a confirmation: "queue emails, text "timeout"". */
    public String describe() {
        if (isEmpty()) {
            return "every failed job";
        }
        StringBuilder words = new StringBuilder();
        if (queue != null) {
            words.append("queue ").append(queue);
        }
        if (text != null) {
            words.append(words.length() > 0 ? ", " : "").append("text \"").append(text).append('"');
        }
        if (from > 0) {
            words.append(words.length() > 0 ? ", " : "").append("from ").append(Format.INSTANCE.time(from));
        }
        if (to > 0) {
            words.append(words.length() > 0 ? ", " : "").append("to ").append(Format.INSTANCE.time(to));
        }
        return words.toString();
    }

    /**
     * A time from a {@code datetime-local} input (read as UTC), an ISO instant or epoch ms; 0 when blank.
     *
     * @throws IllegalArgumentException when the text is none of these
     */
    static long time(String text) {
        if (text == null || text.isBlank()) {
            return 0;
        }
        String value = text.trim();
        try {
            if (value.chars().allMatch(Character::isDigit)) {
                return Long.parseLong(value);
            }
            if (value.endsWith("Z") || value.contains("+")) {
                return Instant.parse(value).toEpochMilli();
            }
            return LocalDateTime.parse(value).toInstant(ZoneOffset.UTC).toEpochMilli();
        } catch (DateTimeParseException | NumberFormatException e) {
            throw new IllegalArgumentException("'" + value + "' is not a time: use 2026-01-02T03:04 (UTC)");
        }
    }

    private static String blankToNull(String value) {
        return value == null || value.isBlank() ? null : value.trim();
    }
}
