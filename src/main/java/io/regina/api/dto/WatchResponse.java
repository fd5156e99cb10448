package io.regina.api.dto;

/**
 * The answer of {@code GET /api/v1/watch/queue/{queue}}: whether the group has deliverable work (false when
 * the timeout passed first), with its depth at that moment, as {@code /queues/{queue}/depth} counts it.
 */
public record WatchResponse(String queue, String consumerGroup, boolean deliverable, long ready, long leased,
                            long delayed) {
}
