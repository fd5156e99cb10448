package io.regina.queue;

/**
 * A message that failed for good: one row of the failed-jobs table, which is also the
 * dead-letter queue. {@code retryOf} links a row to the row it was retried from.
 */
public record FailedJob(String uuid, String queue, String partition, String partitionId, String consumerGroup,
                        String messageId, String transactionId, String traceId, String data, String error,
                        int attempts, String producerSub, long createdAt, long failedAt, String retryOf) {
}
