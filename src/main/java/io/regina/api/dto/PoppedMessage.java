package io.regina.api.dto;

import com.fasterxml.jackson.annotation.JsonRawValue;

/** One delivered message in a pop answer; {@code data} is the payload's JSON, written as is. */
public record PoppedMessage(String id, String transactionId, String traceId, @JsonRawValue String data,
                            String producerSub, String createdAt, String partitionId, String partition,
                            String leaseId, String consumerGroup, int attempts) {
}
