package io.regina.client;

/**
 * Which failed jobs to list: of {@code queue}, whose error or payload contains {@code q}, failed between
 * {@code from} and {@code to} (ISO-8601), {@code limit} a page, after {@code cursor}; null is no filter.
 */
public record FailedJobQuery(String queue, String q, String from, String to, Integer limit, String cursor) {

    public static FailedJobQuery all() {
        return new FailedJobQuery(null, null, null, null, null, null);
    }

    public static FailedJobQuery ofQueue(String queue) {
        return new FailedJobQuery(queue, null, null, null, null, null);
    }

    public FailedJobQuery after(String nextCursor) {
        return new FailedJobQuery(queue, q, from, to, limit, nextCursor);
    }

    String query() {
        return new Query().add("queue", queue).add("q", q).add("from", from).add("to", to).add("limit", limit)
                .add("cursor", cursor).toString();
    }
}
