package io.regina.client;

/**
 * A watch's answer: whether the group had deliverable work before the timeout, and its depth then. The
 * watch leases nothing.
 */
public record Watch(String queue, String consumerGroup, boolean deliverable, long ready, long leased, long delayed) {
}
