package io.regina.queue;

import java.util.ArrayList;
import java.util.List;

/**
 * Decides what happens to consumer groups as a whole: deleting one (everywhere or on one queue),
 * moving its cursors (seek), and the subscription time it starts new queues from.
 */
final class GroupAdministration {

    private final BrokerState state;

    GroupAdministration(BrokerState state) {
        this.state = state;
    }

    Result deleteGroup(Command.DeleteGroup c) {
        int deleted = 0;
        List<BrokerQueue> targets = new ArrayList<>();
        if (c.queue() == null) {
            targets.addAll(state.queues.values());
        } else if (state.queues.containsKey(c.queue())) {
            targets.add(state.queues.get(c.queue()));
        }
        for (BrokerQueue queue : targets) {
            Group group = queue.groups.remove(c.group());
            if (group == null) {
                continue;
            }
            for (Cursor cursor : group.cursors.values()) {
                state.deliveries.dropClaim(cursor);
                deleted++;
            }
            if (group.isQueueMode()) {
                // Queue mode always exists: it starts over from the head, as a new group would.
                Group fresh = new Group(Group.QUEUE_MODE, queue, 0);
                queue.groups.put(Group.QUEUE_MODE, fresh);
                for (Partition partition : queue.partitions.values()) {
                    Cursor cursor = new Cursor(partition, fresh, partition.log.headSeq());
                    fresh.cursors.put(partition.name, cursor);
                    cursor.markMaybeReady();
                }
                state.deliverable.add(queue.name);
            }
            for (Partition partition : queue.partitions.values()) {
                state.retention.compact(partition);
            }
        }
        boolean metadata = c.queue() == null && state.groupSubscriptions.remove(c.group()) != null;
        return new Result.GroupDeleted(c.group(), c.queue(), deleted, c.queue() == null || metadata);
    }

    Result seek(Command.Seek c, long now) {
        BrokerQueue queue = state.queues.get(c.queue());
        if (queue == null) {
            return Rejection.QUEUE_NOT_FOUND.reject(c.queue());
        }
        String groupName = Group.nameOf(c.group());
        Group group = state.deliveries.groupFor(queue, groupName, SubscriptionMode.ALL, 0, now);
        int updated = 0;
        for (Cursor cursor : group.cursors.values()) {
            state.deliveries.dropClaim(cursor);
            MessageLog log = cursor.partition.log;
            cursor.moveTo(c.toEnd() ? log.tailSeq() : log.firstAppendedAfter(c.timestamp()));
            group.ready.remove(cursor);
            cursor.markMaybeReady();
            updated++;
        }
        for (Partition partition : queue.partitions.values()) {
            state.retention.compact(partition);
        }
        state.deliverable.add(queue.name);
        return new Result.Sought(groupName, queue.name, c.toEnd(), c.timestamp(), updated);
    }

    Result setSubscription(Command.SetSubscription c) {
        state.groupSubscriptions.put(c.group(), c.timestamp());
        int queuesUpdated = 0;
        for (BrokerQueue queue : state.queues.values()) {
            Group group = queue.groups.get(c.group());
            if (group != null) {
                group.subscribedAt = c.timestamp();
                queuesUpdated++;
            }
        }
        return new Result.SubscriptionSet(c.group(), c.timestamp(), queuesUpdated);
    }
}
