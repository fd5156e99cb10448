package io.regina.api.dto;

import java.util.List;

/** The body of {@code POST /api/v1/transaction}: pushes and acks applied all or nothing. */
public record TransactionRequest(List<Operation> operations, List<String> requiredLeases) {
    /** {@code {type:"push", items}} or {@code {type:"ack", ...the fields of an AckRequest}}. */
    @ObjectName("operation")
    public record Operation(String type, List<PushRequest.Item> items, String transactionId, String partitionId,
                            String status, String error, String consumerGroup, String leaseId, Long delayMs,
                            Long retryAfterMs) {
        /** The acknowledgement an ack operation carries at its own top level. */
        public AckRequest ack() {
            return new AckRequest(transactionId, partitionId, status, error, consumerGroup, leaseId, delayMs,
                    retryAfterMs);
        }
    }
}
