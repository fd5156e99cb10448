package io.regina.client;

/**
 * The outcome of one acknowledgement, in input order; {@code error} is {@code Message not found} or
 * {@code Invalid or expired lease} when {@code success} is false.
 */
public record Acked(int index, String transactionId, boolean success, String error, String queueName,
                    String partitionName, boolean leaseReleased, boolean dlq) {
}
