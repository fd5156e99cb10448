package io.regina.queue;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Iterator;
import java.util.List;

/** The {@link BrokerView} of a {@link BrokerState}: computes each picture from the indexes, changes nothing. */
final class StateView implements BrokerView {

    private final BrokerState state;

    StateView(BrokerState state) {
        this.state = state;
    }

    @Override
    public FailedJobs failedJobs() {
        return state.failedJobs;
    }

    @Override
    public long lastAppliedTime() {
        return state.lastNow;
    }

    @Override
    public boolean hasQueue(String queue) {
        return state.queues.containsKey(queue);
    }

    @Override
    public List<String> queueNames() {
        return List.copyOf(state.queues.keySet());
    }

    @Override
    public Views.Maintenance maintenance() {
        return new Views.Maintenance(state.maintenanceMode, state.popMaintenanceMode, state.buffered.size());
    }

    @Override
    public List<String> diskAlarms() {
        return state.diskAlarms.raised(state.lastNow);
    }

    @Override
    public long storedBytes() {
        return state.bodies.bytes();
    }

    @Override
    public long storedMessages() {
        return state.bodies.count();
    }

    @Override
    public boolean mayDeliver(String queueName, String partition, String group) {
        BrokerQueue queue = state.queues.get(queueName);
        if (queue == null || queue.paused || state.popMaintenanceMode) {
            return false;
        }
        Group existing = queue.groups.get(Group.nameOf(group));
        if (existing == null) {
            // The group's first pop registers where it starts (subscriptionMode new: then), so it must be
            // applied even when every partition is empty; skipped, the group would start at a later pop and
            // take what was pushed in between for history.
            return true;
        }
        if (partition == null || partition.isEmpty() || "Default".equals(partition)) {
            return !existing.ready.isEmpty();
        }
        Cursor cursor = existing.cursors.get(partition);
        return cursor != null && cursor.claim == null && cursor.firstDeliverable() != null;
    }

    @Override
    public boolean mayDeliverOnceSettled(String queueName, String partition, String group,
                                         Collection<String> settledPartitionIds) {
        if (mayDeliver(queueName, partition, group)) {
            return true;
        }
        BrokerQueue queue = state.queues.get(queueName);
        Group existing = queue == null || queue.paused || state.popMaintenanceMode ? null
                : queue.groups.get(Group.nameOf(group));
        if (existing == null) {
            return false;
        }
        boolean wildcard = partition == null || partition.isEmpty() || "Default".equals(partition);
        for (String id : settledPartitionIds) {
            Partition settled = state.partitionsById.get(id);
            if (settled == null || settled.queue != queue || !wildcard && !settled.name.equals(partition)) {
                continue;
            }
            Cursor cursor = existing.cursors.get(settled.name);
            if (cursor != null && cursor.hasMoreThanClaimed()) {
                return true;
            }
        }
        return false;
    }

    @Override
    public boolean hasDeliverable(String queueName, String group, List<String> partitions) {
        BrokerQueue queue = state.queues.get(queueName);
        if (queue == null || queue.paused || state.popMaintenanceMode) {
            return false;
        }
        Group existing = queue.groups.get(Group.nameOf(group));
        for (Partition partition : queue.partitions.values()) {
            if (!partitions.isEmpty() && !partitions.contains(partition.name)) {
                continue;
            }
            Cursor cursor = existing == null ? null : existing.cursors.get(partition.name);
            boolean deliverable = cursor == null ? partition.log.head() != null
                    : cursor.claim == null && cursor.firstDeliverable() != null;
            if (deliverable) {
                return true;
            }
        }
        return false;
    }

    @Override
    public int readyPartitions(String queueName, String group) {
        BrokerQueue queue = state.queues.get(queueName);
        if (queue == null || queue.paused || state.popMaintenanceMode) {
            return 0;
        }
        Group existing = queue.groups.get(Group.nameOf(group));
        return existing == null ? Integer.MAX_VALUE : existing.ready.size();
    }

    @Override
    public Views.Depth depth(String queueName, String group) {
        BrokerQueue queue = state.queues.get(queueName);
        if (queue == null) {
            return null;
        }
        return depth(queue, group == null ? Group.QUEUE_MODE : group);
    }

    private Views.Depth depth(BrokerQueue queue, String groupName) {
        long delayed = queue.delayed.countFor(groupName);
        Group group = queue.groups.get(groupName);
        if (group != null) {
            return new Views.Depth(group.pending, group.reserved, delayed, group.settled);
        }
        // A group yet to read starts from each partition's head: every entry in the logs is pending for it.
        return new Views.Depth(queue.storedMessages - queue.delayed.size(), 0, delayed, 0);
    }

    @Override
    public long oldestPendingCreatedAt(String queueName) {
        BrokerQueue queue = state.queues.get(queueName);
        if (queue == null) {
            return 0;
        }
        Group group = queue.queueMode();
        long oldest = 0;
        for (Partition partition : queue.partitions.values()) {
            Message first = group.cursors.get(partition.name).firstDeliverable();
            if (first != null && (oldest == 0 || first.createdAt < oldest)) {
                oldest = first.createdAt;
            }
        }
        return oldest;
    }

    @Override
    public List<Views.QueueSummary> queues() {
        List<Views.QueueSummary> summaries = new ArrayList<>(state.queues.size());
        for (BrokerQueue queue : state.queues.values()) {
            summaries.add(summary(queue));
        }
        return summaries;
    }

    @Override
    public Views.QueueSummary queue(String name) {
        BrokerQueue queue = state.queues.get(name);
        return queue == null ? null : summary(queue);
    }

    private Views.QueueSummary summary(BrokerQueue queue) {
        List<String> groups = new ArrayList<>();
        for (String group : queue.groups.keySet()) {
            if (!Group.QUEUE_MODE.equals(group)) {
                groups.add(group);
            }
        }
        return new Views.QueueSummary(queue.name, queue.id, queue.namespace, queue.task, queue.options, queue.paused,
                queue.partitions.size(), queue.storedMessages, depth(queue, Group.QUEUE_MODE),
                state.failedJobs.size(queue.name), groups);
    }

    @Override
    public List<Views.PartitionView> partitions(String queueName, int offset, int limit) {
        BrokerQueue queue = state.queues.get(queueName);
        if (queue == null) {
            return List.of();
        }
        List<Views.PartitionView> page = new ArrayList<>();
        int index = 0;
        for (Partition partition : queue.partitions.values()) {
            if (index++ < offset) {
                continue;
            }
            if (page.size() == limit) {
                break;
            }
            List<Views.GroupPosition> positions = new ArrayList<>();
            for (Group group : queue.groups.values()) {
                Cursor cursor = group.cursors.get(partition.name);
                Claim claim = cursor.claim;
                positions.add(new Views.GroupPosition(group.name, cursor.next,
                        Math.max(0, partition.log.tailSeq() - cursor.next - cursor.doneAheadCount()),
                        claim == null ? null : claim.lease.id, claim == null ? 0 : claim.lease.expiresAt,
                        cursor.batchRetries));
            }
            Message newest = partition.log.newest();
            page.add(new Views.PartitionView(partition.name, partition.id, partition.log.size(),
                    partition.log.headSeq(), partition.log.tailSeq(), newest == null ? 0 : newest.appendedAt,
                    positions));
        }
        return page;
    }

    @Override
    public List<Views.GroupSummary> groups() {
        List<Views.GroupSummary> summaries = new ArrayList<>();
        for (BrokerQueue queue : state.queues.values()) {
            for (Group group : queue.groups.values()) {
                summaries.add(new Views.GroupSummary(group.name, queue.name, group.cursors.size(), group.lag,
                        group.claimedPartitions, group.subscribedAt));
            }
        }
        return summaries;
    }

    @Override
    public List<Views.MessageView> findMessages(String key, int limit) {
        List<Views.MessageView> found = new ArrayList<>();
        for (BrokerQueue queue : state.queues.values()) {
            for (Partition partition : queue.partitions.values()) {
                Message byTransaction = partition.transactions.get(key);
                if (byTransaction != null) {
                    found.add(view(partition, byTransaction));
                } else if (key.length() == 36) {
                    for (Message message : partition.log.entries()) {
                        if (message.hasId(key)) {
                            found.add(view(partition, message));
                            break;
                        }
                    }
                }
                if (found.size() >= limit) {
                    return found;
                }
            }
        }
        return found;
    }

    @Override
    public List<Views.MessageView> browse(String queueName, String partitionName, long fromSeq, int limit) {
        BrokerQueue queue = state.queues.get(queueName);
        Partition partition = queue == null ? null : queue.partitions.get(partitionName);
        if (partition == null) {
            return List.of();
        }
        List<Views.MessageView> page = new ArrayList<>();
        for (long seq = Math.max(fromSeq, partition.log.headSeq()); seq < partition.log.tailSeq()
                && page.size() < limit; seq++) {
            page.add(view(partition, partition.log.get(seq)));
        }
        return page;
    }

    private Views.MessageView view(Partition partition, Message message) {
        Cursor queueMode = partition.queue.queueMode().cursors.get(partition.name);
        String status;
        if (queueMode.isConsumed(message.seq)) {
            status = "consumed";
        } else if (queueMode.claim != null && queueMode.claim.holds(message.seq)) {
            status = "leased";
        } else {
            status = "pending";
        }
        return new Views.MessageView(message.id(), message.transactionId(), message.traceId, partition.queue.name,
                partition.name, partition.id, state.bodies.get(message.bodyRef), message.producerSub, message.createdAt,
                message.seq, status);
    }

    @Override
    public List<BrokerState.Trace> traces(String transactionId, int limit) {
        List<BrokerState.Trace> found = new ArrayList<>();
        Iterator<BrokerState.Trace> newestFirst = state.traces.descendingIterator();
        while (newestFirst.hasNext() && found.size() < limit) {
            BrokerState.Trace trace = newestFirst.next();
            if (transactionId == null || transactionId.equals(trace.transactionId())) {
                found.add(trace);
            }
        }
        return found;
    }

    @Override
    public int leaseCount() {
        return state.leases.size();
    }

    @Override
    public long nextTimerDue() {
        return state.timers.nextDue();
    }

    @Override
    public int timerCount() {
        return state.timers.size();
    }
}
