package io.regina.queue;

import java.util.List;

/** What applying a {@link Command} answers. Business rejections are {@link Rejected}, never exceptions. */
public sealed interface Result {

    record Rejected(Rejection rejection, String message) implements Result { }

    record Configured(String queueId, String partitionId, String queue, String namespace, String task,
                      QueueOptions options) implements Result { }

    record QueueDeleted(String queue, boolean existed) implements Result {
        public static QueueDeleted deleted(String queue) {
            return new QueueDeleted(queue, true);
        }

        public static QueueDeleted absent(String queue) {
            return new QueueDeleted(queue, false);
        }
    }

    record Pushed(List<PushOutcome> outcomes) implements Result { }

    enum PushStatus { QUEUED, DUPLICATE, BUFFERED }

    record PushOutcome(int index, String transactionId, PushStatus status, String messageId, String partitionId,
                       String traceId, String queue) {
        public static PushOutcome queued(int index, Command.PushItem item, String partitionId, String queue) {
            return new PushOutcome(index, item.transactionId(), PushStatus.QUEUED, item.messageId(), partitionId,
                    item.traceId(), queue);
        }

        /** The transactionId is already stored: {@code messageId} is the original's. */
        public static PushOutcome duplicate(int index, String transactionId, String messageId, String partitionId,
                                            String queue) {
            return new PushOutcome(index, transactionId, PushStatus.DUPLICATE, messageId, partitionId, null, queue);
        }

        /** Held back by push maintenance, pushed when it ends. */
        public static PushOutcome buffered(int index, Command.PushItem item) {
            return new PushOutcome(index, item.transactionId(), PushStatus.BUFFERED, item.messageId(), null,
                    item.traceId(), item.queue());
        }
    }

    /** A pop's answer; {@code messages} empty means "nothing to deliver" (HTTP 204). */
    record Popped(String queue, String partition, String partitionId, String leaseId, String group,
                  List<Delivery> messages, int partitionsClaimed) implements Result {
        public static Popped empty(String queue, String group) {
            return new Popped(queue, null, null, null, group, List.of(), 0);
        }
    }

    record Delivery(String id, String transactionId, String traceId, String data, String producerSub,
                    long createdAt, String partitionId, String partition, String leaseId, String group,
                    int attempts) { }

    record Acked(List<AckOutcome> outcomes) implements Result { }

    /** What a {@link Command.AckAndPop} answers when its acks were not fenced off. */
    record AckedAndPopped(Acked acked, Popped popped) implements Result { }

    record AckOutcome(int index, String transactionId, boolean success, String error, String queue,
                      String partition, boolean leaseReleased, boolean dlq) {
        public static AckOutcome succeeded(int index, String transactionId, String queue, String partition,
                                           boolean leaseReleased, boolean dlq) {
            return new AckOutcome(index, transactionId, true, null, queue, partition, leaseReleased, dlq);
        }

        /** {@code queue} and {@code partition} are null when the partition is unknown. */
        public static AckOutcome refused(int index, String transactionId, Rejection why, String queue,
                                         String partition) {
            return new AckOutcome(index, transactionId, false, why.message(), queue, partition, false, false);
        }
    }

    record TransactionDone(boolean success, String error, List<TxOutcome> results) implements Result {
        public static TransactionDone committed(List<TxOutcome> results) {
            return new TransactionDone(true, null, results);
        }

        /** Nothing of the transaction applied. */
        public static TransactionDone refused(String error) {
            return new TransactionDone(false, error, List.of());
        }
    }

    /** One operation's outcome in a transaction; push fields or ack fields are set by {@code type}. */
    record TxOutcome(int index, String type, boolean success, String transactionId, String messageId,
                     String partitionId, String queue, String error, boolean dlq) {
        public static TxOutcome pushed(int index, PushOutcome push) {
            return new TxOutcome(index, "push", true, push.transactionId(), push.messageId(), push.partitionId(),
                    push.queue(), null, false);
        }

        public static TxOutcome acked(int index, AckOutcome ack, String partitionId) {
            return new TxOutcome(index, "ack", ack.success(), ack.transactionId(), null, partitionId, ack.queue(),
                    ack.error(), ack.dlq());
        }
    }

    record LeaseExtended(String leaseId, boolean success, String error, long expiresAt) implements Result {
        public static LeaseExtended extended(String leaseId, long expiresAt) {
            return new LeaseExtended(leaseId, true, null, expiresAt);
        }

        public static LeaseExtended refused(String leaseId, Rejection why, long expiresAt) {
            return new LeaseExtended(leaseId, false, why.message(), expiresAt);
        }
    }

    record TraceRecorded(String traceId) implements Result { }

    record GroupDeleted(String group, String queue, int deletedPartitions, boolean metadataDeleted)
            implements Result { }

    record Sought(String group, String queue, boolean toEnd, long timestamp, int partitionsUpdated)
            implements Result { }

    record SubscriptionSet(String group, long timestamp, int queuesUpdated) implements Result { }

    record Maintenance(boolean maintenanceMode, boolean popMaintenanceMode, int bufferedMessages)
            implements Result { }

    record Ticked(int expiredLeases, int releasedMessages, int removedMessages) implements Result { }

    record QueuePaused(String queue, boolean paused) implements Result { }

    /** The nodes whose disk alarm is up after a {@link Command.DiskAlarm}. */
    record DiskAlarms(List<String> raised) implements Result { }

    record Cleared(String queue, long cleared) implements Result { }

    /** {@code remaining}: rows the selector still matches after this bounded step. */
    record FailedJobsRetried(int retried, List<String> missing, long remaining) implements Result { }

    /** {@code more}: a bounded removal stopped at its limit while rows still match. */
    record FailedJobsRemoved(int removed, boolean more) implements Result {
        public FailedJobsRemoved(int removed) {
            this(removed, false);
        }
    }
}
