package io.regina.queue;

/** A message waiting in its queue's timer heap until it is due, then appended to its partition. */
final class DelayedMessage {
    final long pendingSeq;
    final Partition partition;
    final String id;
    final String transactionId;
    final String traceId;
    final String producerSub;
    final long bodyRef;
    final long createdAt;
    final long dueAt;
    final String onlyGroup;
    final int baseAttempts;
    final String retryOf;

    DelayedMessage(long pendingSeq, Partition partition, String id, String transactionId, String traceId,
                   String producerSub, long bodyRef, long createdAt, long dueAt, String onlyGroup,
                   int baseAttempts, String retryOf) {
        this.pendingSeq = pendingSeq;
        this.partition = partition;
        this.id = id;
        this.transactionId = transactionId;
        this.traceId = traceId;
        this.producerSub = producerSub;
        this.bodyRef = bodyRef;
        this.createdAt = createdAt;
        this.dueAt = dueAt;
        this.onlyGroup = onlyGroup;
        this.baseAttempts = baseAttempts;
        this.retryOf = retryOf;
    }
}
