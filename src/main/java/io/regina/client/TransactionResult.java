package io.regina.client;

import java.util.List;

/**
 * A transaction's answer: {@code success} false (with {@code error}) means nothing applied. Each result is
 * a push's ids ({@code messageId}, {@code partitionId}, {@code queueName}) or an ack's {@code error} and
 * {@code dlq}, by {@code type}.
 */
public record TransactionResult(String transactionId, boolean success, String error, List<Result> results) {

    public TransactionResult {
        results = results == null ? List.of() : List.copyOf(results);
    }

    /** One operation's outcome; the fields of the other type are null. */
    public record Result(int index, String type, boolean success, String transactionId, String messageId,
                         String partitionId, String queueName, String error, Boolean dlq) {
    }
}
