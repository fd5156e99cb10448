package io.regina.api.dto;

import com.fasterxml.jackson.annotation.JsonRawValue;

/** A dead-letter row as Queen's DLQ endpoint shows it, plus Regina's failed-job {@code uuid}. */
public record DlqMessage(String id, String transactionId, String partitionId, String queue, String partition,
                         String consumerGroup, String errorMessage, int retryCount, @JsonRawValue String data,
                         String producerSub, String createdAt, String failedAt, String uuid) {
}
