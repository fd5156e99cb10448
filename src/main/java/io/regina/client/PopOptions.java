package io.regina.client;

import java.time.Duration;

/**
 * How to pop (API.md A3 "Pop"): up to {@code batch} messages, long-polling up to {@code timeout} when
 * {@code longPolls}, for {@code consumerGroup} (null: queue mode), from {@code partition} (null: any), under a
 * lease of {@code leaseSeconds} (null: the queue's {@code leaseTime}).
 */
public record PopOptions(int batch, boolean longPolls, Duration timeout, String consumerGroup, String partition,
                         Integer leaseSeconds) {

    /** One message, no waiting, queue mode, any partition, the queue's lease. */
    public static PopOptions defaults() {
        return new PopOptions(1, false, Duration.ofSeconds(30), null, null, null);
    }

    public PopOptions batch(int size) {
        return new PopOptions(size, longPolls, timeout, consumerGroup, partition, leaseSeconds);
    }

    /** Long-poll up to {@code timeout} for the first message. */
    public PopOptions waitUpTo(Duration longest) {
        return new PopOptions(batch, true, longest, consumerGroup, partition, leaseSeconds);
    }

    public PopOptions consumerGroup(String group) {
        return new PopOptions(batch, longPolls, timeout, group, partition, leaseSeconds);
    }

    public PopOptions partition(String name) {
        return new PopOptions(batch, longPolls, timeout, consumerGroup, name, leaseSeconds);
    }

    public PopOptions leaseSeconds(int seconds) {
        return new PopOptions(batch, longPolls, timeout, consumerGroup, partition, seconds);
    }

    String path(String prefix, String queue) {
        return prefix + Query.segment(queue) + (partition == null ? "" : "/partition/" + Query.segment(partition));
    }

    String query() {
        return new Query().add("batch", batch).add("wait", longPolls).add("timeout", timeout.toMillis())
                .add("consumerGroup", consumerGroup).add("leaseSeconds", leaseSeconds).toString();
    }

    /** How long the broker may hold the answer. */
    Duration longPoll() {
        return longPolls ? timeout : Duration.ZERO;
    }
}
