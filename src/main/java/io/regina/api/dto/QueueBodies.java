package io.regina.api.dto;

import com.fasterxml.jackson.annotation.JsonUnwrapped;

import java.util.List;

/** Request and answer bodies of the queue endpoints (API.md A2, A3 and B2). */
public final class QueueBodies {
    private QueueBodies() {
    }

    /** {@code POST /api/v1/configure}. */
    public record ConfigureRequest(String queue, String namespace, String task, QueueOptionsBody options) {
    }

    public record Configured(boolean configured, String queueId, String partitionId, String queue, String namespace,
                             String task, QueueOptionsBody options) {
    }

    public record Deleted(boolean deleted, String queue, boolean existed) {
    }

    public record QueueList(List<Summary> queues) {
    }

    public record Summary(String name, String id, String namespace, String task, int partitions, long size,
                          long pending, long reserved, long delayed, long failed, boolean paused,
                          List<String> consumerGroups, QueueOptionsBody options) {
    }

    /** One queue with its partitions: the summary's fields, then {@code partitionList}. */
    public record Detail(@JsonUnwrapped Summary summary, List<Partition> partitionList) {
    }

    public record Partition(String name, String id, long messages, String newestMessageAt,
                            List<GroupPosition> consumerGroups) {
    }

    public record GroupPosition(String consumerGroup, long lag, String leaseId, String leaseExpiresAt,
                                int batchRetryCount) {
    }

    public record Namespaces(List<NamespaceRow> namespaces) {
    }

    public record NamespaceRow(String namespace, int queues, long partitions, MessageCounts messages) {
    }

    public record Tasks(List<TaskRow> tasks) {
    }

    public record TaskRow(String task, int queues, long partitions, MessageCounts messages) {
    }

    public record MessageCounts(long total, long pending) {
    }

    public record Overview(int queues, long pending, long reserved, long delayed, long failed, long storedMessages,
                           long storedBytes) {
    }

    public record Size(String queue, long size, long pending, long delayed, long reserved, long oldestPendingAgeMs) {
    }

    public record MonitorRow(String queue, long size, String status) {
    }

    public record Paused(String queue, boolean paused) {
    }

    public record Cleared(String queue, long cleared) {
    }
}
