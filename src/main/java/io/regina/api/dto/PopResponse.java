package io.regina.api.dto;

import java.util.List;

/** A pop answer with messages; top-level fields describe the first partition claimed. */
public record PopResponse(boolean success, String queue, String partition, String partitionId, String leaseId,
                          String consumerGroup, List<PoppedMessage> messages, int partitionsClaimed) {
}
