package io.regina.api;

import java.util.Collections;
import java.util.Map;

/**
 * One connection's last query string, read once: a worker asks for its next job with the same query every
 * time ({@code batch=1&wait=true&timeout=…}), and reading it again cost a map, its nodes and a string per
 * name and value on every pop (issue 8: ~950 bytes a job in the pool lane, 6% of what it allocates). A
 * request without a query (the worker's acks in between) reads as the empty map and leaves the last one
 * kept. The maps it hands out are unmodifiable, since the next request with the same query gets the same
 * one. Used on the connection's event loop only.
 */
final class RepeatedQuery {
    private String raw;
    private Map<String, String> read;

    /** {@code rawQuery}'s parameters as {@link HotPaths#query} reads them (null: no query). */
    Map<String, String> of(String rawQuery) {
        if (rawQuery == null) {
            return Collections.emptyMap();
        }
        if (read == null || !rawQuery.equals(raw)) {
            read = Collections.unmodifiableMap(HotPaths.query(rawQuery));
            raw = rawQuery;
        }
        return read;
    }
}
