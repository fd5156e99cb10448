package io.regina.client;

/**
 * One consumer group's counts on a queue, with its recent settle rate and the time to drain at that rate
 * (both null until the answering node has a rate).
 */
public record Depth(String queue, String consumerGroup, long ready, long leased, long delayed, long total,
                    Double settledPerSecond, Long drainSeconds) {
}
