package io.regina.queue;

import java.util.ArrayList;
import java.util.List;

/**
 * A group's depth counted the slow way, by walking every cursor of the queue: what the broker's running sums
 * ({@link Cursor#recount()}, {@link DelayedMessages}) must always equal.
 */
final class WalkedDepth {

    private WalkedDepth() {
    }

    static Views.Depth of(BrokerState state, String queueName, String groupName) {
        BrokerQueue queue = state.queues.get(queueName);
        Group group = queue.groups.get(groupName);
        long pending = 0;
        long reserved = 0;
        long settled = 0;
        for (Partition partition : queue.partitions.values()) {
            Cursor cursor = group == null ? null : group.cursors.get(partition.name);
            long start = cursor == null ? partition.log.headSeq() : cursor.next;
            long ahead = cursor == null ? 0 : cursor.doneAheadCount();
            long leased = cursor == null || cursor.claim == null ? 0 : cursor.claim.unresolvedCount();
            settled += cursor == null ? 0 : cursor.next + ahead;
            reserved += leased;
            pending += Math.max(0, partition.log.tailSeq() - start - ahead - leased);
        }
        long delayed = 0;
        for (DelayedMessage waiting : queue.delayed.values()) {
            if (waiting.onlyGroup == null || waiting.onlyGroup.equals(groupName)) {
                delayed++;
            }
        }
        return new Views.Depth(pending, reserved, delayed, settled);
    }

    static List<Views.GroupSummary> groups(BrokerState state) {
        List<Views.GroupSummary> summaries = new ArrayList<>();
        for (BrokerQueue queue : state.queues.values()) {
            for (Group group : queue.groups.values()) {
                long lag = 0;
                int leased = 0;
                for (Cursor cursor : group.cursors.values()) {
                    lag += Math.max(0, cursor.partition.log.tailSeq() - cursor.next - cursor.doneAheadCount());
                    leased += cursor.claim == null ? 0 : 1;
                }
                summaries.add(new Views.GroupSummary(group.name, queue.name, group.cursors.size(), lag, leased,
                        group.subscribedAt));
            }
        }
        return summaries;
    }

    /** Fails naming the first queue and group whose running sums differ from the walk. */
    static void check(BrokerState state) {
        for (BrokerQueue queue : state.queues.values()) {
            List<String> names = new ArrayList<>(queue.groups.keySet());
            names.add("a-group-yet-to-read");
            for (String group : names) {
                Views.Depth walked = of(state, queue.name, group);
                Views.Depth summed = state.view().depth(queue.name, group);
                if (!walked.equals(summed)) {
                    throw new AssertionError("depth of " + queue.name + "/" + group + " is " + summed
                            + " but a walk of its cursors counts " + walked);
                }
            }
        }
        List<Views.GroupSummary> walked = groups(state);
        if (!walked.equals(state.view().groups())) {
            throw new AssertionError("groups " + state.view().groups() + " but a walk of their cursors counts "
                    + walked);
        }
    }
}
