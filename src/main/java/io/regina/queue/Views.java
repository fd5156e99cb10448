package io.regina.queue;

import java.util.List;

/** Read-only pictures of the state, for the HTTP read endpoints and the dashboard. */
public final class Views {

    private Views() {
    }

    /**
     * Counts for one consumer group over a queue (or one partition). {@code settledSeq} is a position, not
     * a count: the sum over the queue's partitions of how far the group has settled each log (its cursor
     * plus the entries settled ahead of it). Only its increase means something: every ack that settles
     * an entry (completed, dead letter, released as a new copy) raises it by one, so its increase over a
     * while is the group's settle rate. A seek back lowers it.
     */
    public record Depth(long pending, long reserved, long delayed, long settledSeq) {
        public long size() {
            return pending + reserved + delayed;
        }
    }

    public record QueueSummary(String name, String id, String namespace, String task, QueueOptions options,
                               boolean paused, int partitions, long storedMessages, Depth depth, long failed,
                               List<String> groups) { }

    public record GroupPosition(String group, long cursor, long lag, String leaseId, long leaseExpiresAt,
                                int batchRetries) { }

    public record PartitionView(String name, String id, long messages, long headSeq, long tailSeq,
                                long newestAt, List<GroupPosition> groups) { }

    public record GroupSummary(String group, String queue, int partitions, long lag, int leased,
                               long subscribedAt) { }

    public record MessageView(String id, String transactionId, String traceId, String queue, String partition,
                              String partitionId, String data, String producerSub, long createdAt, long seq,
                              String status) { }

    public record Maintenance(boolean maintenanceMode, boolean popMaintenanceMode, int bufferedMessages) { }
}
