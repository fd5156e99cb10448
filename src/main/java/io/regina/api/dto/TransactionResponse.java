package io.regina.api.dto;

import com.fasterxml.jackson.annotation.JsonInclude;

import java.util.List;

/** The answer of {@code POST /api/v1/transaction}; {@code error} only when it was refused. */
public record TransactionResponse(String transactionId, boolean success,
                                  @JsonInclude(JsonInclude.Include.NON_NULL) String error, List<Result> results) {
    /** The outcome of one operation: a push's ids, or an ack's error (null when it applied) and dlq flag. */
    public sealed interface Result {
    }

    public record PushResult(int index, String type, boolean success, String transactionId, String messageId,
                             String partitionId, String queueName) implements Result {
    }

    public record AckResult(int index, String type, boolean success, String transactionId, String error, boolean dlq)
            implements Result {
    }
}
