package io.regina.queue;

/**
 * Decides what leaves the logs: retention and maxWaitTime eviction on each tick, consumed entries
 * dropped from the head of a queue read only in queue mode, and clearing a queue's pending messages.
 * Entries leave only from the head, and never while a group holds them leased.
 */
final class Retention {

    private final BrokerState state;

    Retention(BrokerState state) {
        this.state = state;
    }

    Result tick(long now) {
        int removed = 0;
        for (BrokerQueue queue : state.queues.values()) {
            if (!evictsByAge(queue)) {
                continue;
            }
            for (Partition partition : queue.partitions.values()) {
                removed += removeExpired(partition, now);
            }
        }
        return new Result.Ticked(state.deliveries.expiredByTimers(), state.deliveries.releasedByTimers(), removed);
    }

    /** Whether the queue drops messages by their age (retention, maxWaitTime): work only a tick does. */
    static boolean evictsByAge(BrokerQueue queue) {
        QueueOptions options = queue.options;
        boolean retention = options.retentionEnabled()
                && (options.retentionSeconds() > 0 || options.completedRetentionSeconds() > 0);
        boolean completedOnly = !queue.hasNamedGroups() && options.completedRetentionSeconds() > 0;
        return retention || completedOnly || options.maxWaitTimeSeconds() > 0;
    }

    private int removeExpired(Partition partition, long now) {
        BrokerQueue queue = partition.queue;
        QueueOptions options = queue.options;
        boolean completedRetention = options.completedRetentionSeconds() > 0
                && (options.retentionEnabled() || !queue.hasNamedGroups());
        int removed = 0;
        while (!partition.log.isEmpty()) {
            Message head = partition.log.head();
            if (leasedByAnyGroup(queue, partition, head.seq)) {
                break;
            }
            long age = now - head.createdAt;
            boolean consumedByAll = true;
            for (Group group : queue.groups.values()) {
                if (!group.cursors.get(partition.name).isConsumed(head.seq) && head.visibleTo(group.name)) {
                    consumedByAll = false;
                    break;
                }
            }
            boolean expired = (options.retentionEnabled() && options.retentionSeconds() > 0
                    && age > options.retentionSeconds() * 1000L)
                    || (completedRetention && consumedByAll && age > options.completedRetentionSeconds() * 1000L)
                    // A consumed entry that old goes too: entries leave only from the head, so
                    // keeping it would shield the unconsumed ones behind it from eviction.
                    || (options.maxWaitTimeSeconds() > 0 && age > options.maxWaitTimeSeconds() * 1000L);
            if (!expired) {
                break;
            }
            for (Group group : queue.groups.values()) {
                Cursor cursor = group.cursors.get(partition.name);
                if (head.visibleTo(group.name) && cursor.stateOf(head.seq) != MessageState.CONSUMED) {
                    MessageState.transition(cursor.stateOf(head.seq), MessageState.FORGOTTEN);
                }
            }
            removeHead(partition);
            removed++;
        }
        if (removed > 0) {
            for (Group group : queue.groups.values()) {
                group.cursors.get(partition.name).normalize();
            }
        }
        return removed;
    }

    /** Removes every message no group has consumed yet, and all delayed ones; leased ones stay. */
    Result clear(String name) {
        BrokerQueue queue = state.queues.get(name);
        if (queue == null) {
            return new Result.Cleared(name, 0);
        }
        long cleared = 0;
        for (DelayedMessage waiting : queue.delayed.values()) {
            for (Group group : queue.groups.values()) {
                if (waiting.onlyGroup == null || waiting.onlyGroup.equals(group.name)) {
                    MessageState.transition(MessageState.DELAYED, MessageState.FORGOTTEN);
                }
            }
            waiting.partition.releaseDelayed(waiting.transactionId, null);
            state.bodies.remove(waiting.bodyRef);
            cleared++;
        }
        queue.storedMessages -= queue.delayed.size();
        queue.delayed.clear();
        for (Partition partition : queue.partitions.values()) {
            long keepFrom = partition.log.tailSeq();
            for (Group group : queue.groups.values()) {
                Cursor cursor = group.cursors.get(partition.name);
                keepFrom = Math.min(keepFrom, cursor.next);
                if (cursor.claim != null) {
                    for (long seq : cursor.claim.seqs()) {
                        keepFrom = Math.min(keepFrom, seq);
                    }
                }
            }
            // Everything from the oldest cursor on that is not leased is pending: consume it for all groups.
            for (long seq = keepFrom; seq < partition.log.tailSeq(); seq++) {
                Message message = partition.log.get(seq);
                if (message == null || leasedByAnyGroup(queue, partition, seq)) {
                    continue;
                }
                boolean pendingSomewhere = false;
                for (Group group : queue.groups.values()) {
                    Cursor cursor = group.cursors.get(partition.name);
                    if (!cursor.isConsumed(seq) && message.visibleTo(group.name)) {
                        cursor.consume(seq, MessageState.CONSUMED);
                        pendingSomewhere = true;
                    }
                }
                if (pendingSomewhere) {
                    cleared++;
                }
            }
            compact(partition);
        }
        return new Result.Cleared(name, cleared);
    }

    private static boolean leasedByAnyGroup(BrokerQueue queue, Partition partition, long seq) {
        for (Group group : queue.groups.values()) {
            Cursor cursor = group.cursors.get(partition.name);
            if (cursor.claim != null && cursor.claim.holds(seq) && !cursor.claim.isResolved(seq)) {
                return true;
            }
        }
        return false;
    }

    /** In a queue read only in queue mode, drops consumed entries from the head (completedRetentionSeconds 0). */
    void compact(Partition partition) {
        BrokerQueue queue = partition.queue;
        if (queue.options.completedRetentionSeconds() > 0 || queue.hasNamedGroups()) {
            return;
        }
        Cursor cursor = queue.queueMode().cursors.get(partition.name);
        while (!partition.log.isEmpty() && partition.log.headSeq() < cursor.next) {
            removeHead(partition);
        }
    }

    private void removeHead(Partition partition) {
        Message message = partition.log.removeHead();
        partition.transactions.remove(message);
        if (partition.isStripe()) {
            partition.queue.stripeTransactions.remove(message);
        }
        state.bodies.remove(message.bodyRef);
        partition.queue.storedMessages--;
    }
}
