package io.regina.api.dto;

import com.fasterxml.jackson.annotation.JsonInclude;

/** Request and answer bodies of the consumer-group endpoints. */
public final class ConsumerGroupBodies {
    private ConsumerGroupBodies() {
    }

    public record Group(String consumerGroup, String queueName, int partitions, long lag, int leasedPartitions,
                        String subscriptionTimestamp) {
    }

    /** {@code queueName} only when the group was deleted on one queue. */
    public record Deleted(boolean success, String consumerGroup,
                          @JsonInclude(JsonInclude.Include.NON_NULL) String queueName, long deletedPartitions,
                          boolean metadataDeleted) {
    }

    /** {@code POST .../seek}: a time, or the end. */
    public record SeekRequest(Boolean toEnd, String timestamp) {
    }

    public record Sought(boolean success, String consumerGroup, String queueName, boolean seekToEnd,
                         String targetTimestamp, long partitionsUpdated) {
    }

    public record SubscriptionRequest(String subscriptionTimestamp) {
    }

    public record SubscriptionSet(boolean success, String consumerGroup, String subscriptionTimestamp,
                                  long queuesUpdated) {
    }
}
