package io.regina.api.dto;

/**
 * The answer of {@code GET /api/v1/queues/{queue}/depth}: one consumer group's counts, and an estimate of
 * how long it takes to settle them at its recent rate ({@code null} while the rate is unknown or zero).
 */
public record QueueDepth(String queue, String consumerGroup, long ready, long leased, long delayed, long total,
                         Double settledPerSecond, Long drainSeconds) {
}
