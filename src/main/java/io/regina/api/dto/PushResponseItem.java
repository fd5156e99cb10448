package io.regina.api.dto;

import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * The outcome of one pushed message, in input order, in Queen's snake_case. Each outcome has its own
 * fields (a duplicate has no partition or trace), so each is its own record.
 */
public sealed interface PushResponseItem {
    record Queued(int index, @JsonProperty("transaction_id") String transactionId, String status,
                  @JsonProperty("message_id") String messageId, @JsonProperty("partition_id") String partitionId,
                  @JsonProperty("trace_id") String traceId, String queueName) implements PushResponseItem {
    }

    record Duplicate(int index, @JsonProperty("transaction_id") String transactionId, String status,
                     @JsonProperty("message_id") String messageId, String queueName) implements PushResponseItem {
    }

    record Buffered(int index, @JsonProperty("transaction_id") String transactionId, String status,
                    @JsonProperty("message_id") String messageId, @JsonProperty("trace_id") String traceId,
                    String queueName) implements PushResponseItem {
    }

    static PushResponseItem queued(int index, String transactionId, String messageId, String partitionId,
                                   String traceId, String queue) {
        return new Queued(index, transactionId, "queued", messageId, partitionId, traceId, queue);
    }

    static PushResponseItem duplicate(int index, String transactionId, String messageId, String queue) {
        return new Duplicate(index, transactionId, "duplicate", messageId, queue);
    }

    static PushResponseItem buffered(int index, String transactionId, String messageId, String traceId, String queue) {
        return new Buffered(index, transactionId, "buffered", messageId, traceId, queue);
    }
}
