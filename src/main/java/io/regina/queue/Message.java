package io.regina.queue;

/**
 * One entry of a partition's log. A released or retried job re-enters the log as a new entry
 * that only {@code onlyGroup} sees, carrying the deliveries already counted in {@code baseAttempts}.
 */
final class Message {
    final long seq;
    final String id;
    final String transactionId;
    final String traceId;
    final String producerSub;
    final long bodyRef;
    final long createdAt;
    final long appendedAt;
    final String onlyGroup;
    final int baseAttempts;
    final String retryOf;

    Message(long seq, String id, String transactionId, String traceId, String producerSub, long bodyRef,
            long createdAt, long appendedAt, String onlyGroup, int baseAttempts, String retryOf) {
        this.seq = seq;
        this.id = id;
        this.transactionId = transactionId;
        this.traceId = traceId;
        this.producerSub = producerSub;
        this.bodyRef = bodyRef;
        this.createdAt = createdAt;
        this.appendedAt = appendedAt;
        this.onlyGroup = onlyGroup;
        this.baseAttempts = baseAttempts;
        this.retryOf = retryOf;
    }

    boolean visibleTo(String group) {
        return onlyGroup == null || onlyGroup.equals(group);
    }
}
