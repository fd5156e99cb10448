package io.regina.client;

import tools.jackson.databind.JsonNode;

/**
 * One delivered message of a pop. {@code attempts} is how many times it has been delivered, this time
 * included (API.md C2): a lease that expired counts, a {@code retry} hand-back does not.
 */
public record Message(String id, String transactionId, String traceId, JsonNode data, String producerSub,
                      String createdAt, String partitionId, String partition, String leaseId, String consumerGroup,
                      int attempts) {
}
