package io.regina.client;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;

/** A URL query string and path segments, encoded; a null value leaves its parameter out. */
final class Query {
    private final StringBuilder text = new StringBuilder();

    Query add(String name, Object value) {
        if (value != null) {
            text.append(text.length() == 0 ? '?' : '&').append(name).append('=')
                    .append(URLEncoder.encode(String.valueOf(value), StandardCharsets.UTF_8));
        }
        return this;
    }

    /** One path segment: a name as the broker looks it up, with spaces as {@code %20}, not {@code +}. */
    static String segment(String name) {
        return URLEncoder.encode(name, StandardCharsets.UTF_8).replace("+", "%20");
    }

    @Override
    public String toString() {
        return text.toString();
    }
}
