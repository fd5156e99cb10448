package io.regina.api.dto;

import tools.jackson.databind.annotation.JsonDeserialize;

import java.util.List;

/** Request and answer bodies of the failed-job and DLQ endpoints (API.md B1). */
public final class FailedJobBodies {
    private FailedJobBodies() {
    }

    /** A page of failed jobs, newest first, and how many rows match in all. */
    public record Page(List<FailedJobDto> items, String nextCursor, long total) {
    }

    /** {@code POST /api/v1/failed-jobs/retry}: exactly one selector; the top level's queue/q/from/to are a filter. */
    public record RetryRequest(List<String> ids, Boolean all, Filter filter, String queue, String q, String from,
                               String to) {
        public Filter topLevelFilter() {
            return new Filter(queue, q, from, to);
        }
    }

    @ObjectName("filter")
    public record Filter(String queue, String q, String from, String to) {
    }

    /** {@code POST /api/v1/failed-jobs/{uuid}/retry}: {@code data}, when there, replaces the payload (JSON null too). */
    public record RetryOneRequest(@JsonDeserialize(using = RawJson.class) String data) {
    }

    public record Retried(long retried, List<String> missing) {
    }

    public record Forgotten(long forgotten) {
    }

    /** {@code POST /api/v1/failed-jobs/flush}: older than {@code hours} (0: all), of {@code queue} or all. */
    public record FlushRequest(Long hours, String queue) {
    }

    public record Flushed(long flushed) {
    }

    /** {@code POST /api/v1/failed-jobs/prune}: strictly older than {@code hours}, 24 without. */
    public record PruneRequest(Long hours) {
    }

    public record Pruned(long pruned) {
    }

    public record DlqPage(List<DlqMessage> messages, Pagination pagination, long total) {
    }

    public record Pagination(int limit, int offset) {
    }
}
