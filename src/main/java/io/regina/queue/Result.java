package io.regina.queue;

import java.util.List;

/** What applying a {@link Command} answers. Business rejections are {@link Rejected}, never exceptions. */
public sealed interface Result {

    record Rejected(Rejection rejection, String message) implements Result { }

    record Configured(String queueId, String partitionId, String queue, String namespace, String task,
                      QueueOptions options) implements Result { }

    record QueueDeleted(String queue, boolean existed) implements Result { }

    record Pushed(List<PushOutcome> outcomes) implements Result { }

    enum PushStatus { QUEUED, DUPLICATE, BUFFERED }

    record PushOutcome(int index, String transactionId, PushStatus status, String messageId, String partitionId,
                       String traceId, String queue) { }

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

    record AckOutcome(int index, String transactionId, boolean success, String error, String queue,
                      String partition, boolean leaseReleased, boolean dlq) { }

    record TransactionDone(boolean success, String error, List<TxOutcome> results) implements Result { }

    /** One operation's outcome in a transaction; push fields or ack fields are set by {@code type}. */
    record TxOutcome(int index, String type, boolean success, String transactionId, String messageId,
                     String partitionId, String queue, String error, boolean dlq) { }

    record LeaseExtended(String leaseId, boolean success, String error, long expiresAt) implements Result { }

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
