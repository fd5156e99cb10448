package io.regina.client;

import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * The outcome of one pushed message, in input order: {@code status} is {@code queued}, {@code duplicate}
 * (then {@code messageId} is the original's) or {@code buffered} (maintenance mode).
 */
public record Pushed(int index, @JsonProperty("transaction_id") String transactionId, String status,
                     @JsonProperty("message_id") String messageId, @JsonProperty("partition_id") String partitionId,
                     @JsonProperty("trace_id") String traceId, String queueName) {

    public boolean duplicate() {
        return "duplicate".equals(status);
    }
}
