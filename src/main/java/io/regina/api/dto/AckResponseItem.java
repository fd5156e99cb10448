package io.regina.api.dto;

/** The outcome of one acknowledgement, in input order. */
public record AckResponseItem(int index, String transactionId, boolean success, String error, String queueName,
                              String partitionName, boolean leaseReleased, boolean dlq) {
}
