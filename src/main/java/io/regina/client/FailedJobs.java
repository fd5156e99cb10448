package io.regina.client;

import tools.jackson.databind.JsonNode;

import java.util.List;
import java.util.Map;

/**
 * The failed-jobs operations (API.md B1), from {@link ReginaClient#failedJobs()}. Each is one replicated
 * command on the broker and answers with its count.
 */
public final class FailedJobs {
    private final ReginaClient client;

    /** The answer of a bulk retry: how many were pushed back, and the ids that were not found. */
    public record Retried(long retried, List<String> missing) {
    }

    record Forgotten(long forgotten) {
    }

    record Flushed(long flushed) {
    }

    FailedJobs(ReginaClient client) {
        this.client = client;
    }

    public FailedJobPage list(FailedJobQuery query) {
        return client.call("GET", "/api/v1/failed-jobs" + query.query(), null, FailedJobPage.class);
    }

    /** One row; a {@link BrokerRefusedException} with status 404 when there is none. */
    public FailedJob show(String uuid) {
        return client.call("GET", "/api/v1/failed-jobs/" + Query.segment(uuid), null, FailedJob.class);
    }

    /** Pushes these rows back to their queues as fresh deliveries (attempts from 0) and deletes them. */
    public Retried retry(List<String> uuids) {
        return client.call("POST", "/api/v1/failed-jobs/retry", Map.of("ids", uuids), Retried.class);
    }

    public Retried retryQueue(String queue) {
        return client.call("POST", "/api/v1/failed-jobs/retry", Map.of("queue", queue), Retried.class);
    }

    public Retried retryAll() {
        return client.call("POST", "/api/v1/failed-jobs/retry", Map.of("all", true), Retried.class);
    }

    /** Retries one row as it is. */
    public Retried retryOne(String uuid) {
        return client.call("POST", "/api/v1/failed-jobs/" + Query.segment(uuid) + "/retry", Map.of(), Retried.class);
    }

    /** Retries one row with its payload replaced by {@code data} (not null; a JSON null node is a null payload). */
    public Retried retryOne(String uuid, JsonNode data) {
        return client.call("POST", "/api/v1/failed-jobs/" + Query.segment(uuid) + "/retry", Map.of("data", data),
                Retried.class);
    }

    /** Deletes one row; a {@link BrokerRefusedException} with status 404 when there is none. */
    public long forget(String uuid) {
        return client.call("DELETE", "/api/v1/failed-jobs/" + Query.segment(uuid), null, Forgotten.class)
                .forgotten();
    }

    /** Deletes the rows of {@code queue} (null: every queue) that failed at least {@code hours} ago (0: all). */
    public long flush(String queue, long hours) {
        Map<String, Object> body = queue == null ? Map.of("hours", hours) : Map.of("hours", hours, "queue", queue);
        return client.call("POST", "/api/v1/failed-jobs/flush", body, Flushed.class).flushed();
    }
}
