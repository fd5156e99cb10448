package io.regina.client;

import tools.jackson.databind.JsonNode;

/** One row of the failed-jobs table (API.md B1); {@code retryOf} is set when it failed again after a retry. */
public record FailedJob(String uuid, String queue, String partition, String consumerGroup, String messageId,
                        String transactionId, String traceId, JsonNode data, String error, int attempts,
                        String createdAt, String failedAt, String retryOf) {
}
