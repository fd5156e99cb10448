package io.regina.api.dto;

/** The body of {@code POST /api/v1/ack}, and one acknowledgement of a batch. */
@ObjectName("acknowledgment")
public record AckRequest(String transactionId, String partitionId, String status, String error, String consumerGroup,
                         String leaseId, Long delayMs, Long retryAfterMs) {
}
