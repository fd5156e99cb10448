package io.regina.api.dto;

import com.fasterxml.jackson.annotation.JsonRawValue;

/** One row of the failed-jobs table (API.md B1). */
public record FailedJobDto(String uuid, String queue, String partition, String consumerGroup, String messageId,
                           String transactionId, String traceId, @JsonRawValue String data, String error,
                           int attempts, String createdAt, String failedAt, String retryOf) {
}
