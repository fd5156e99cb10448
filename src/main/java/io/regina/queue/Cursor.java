package io.regina.queue;

import java.util.HashMap;
import java.util.Map;
import java.util.TreeSet;

/**
 * One consumer group's position in one partition (NATS' consumer state is the model): the next
 * entry to consume, entries consumed out of order ahead of it, delivery counts of entries in flight,
 * at most one lease, and the batch retry counter.
 *
 * <p>States of an entry for this group: {@code PENDING} (at or past {@code next}, not in
 * {@code doneAhead}) → {@code LEASED} (in the lease's claim) → {@code CONSUMED} (before {@code next}
 * or in {@code doneAhead}) | back to {@code PENDING} (failed within retryLimit, hand-back, lease
 * expiry) | {@code FAILED} (a failed-job row, and consumed here); a released entry is consumed here
 * and re-enters the log as a new entry. {@link #consume(long)} and the lease operations in
 * {@link BrokerState} are the only moves.
 */
final class Cursor {
    final Partition partition;
    final Group group;
    long next;
    final TreeSet<Long> doneAhead = new TreeSet<>();
    final Map<Long, Integer> deliveries = new HashMap<>();
    Claim claim;
    int batchRetries;
    /** When a readiness re-check is scheduled (delayedProcessing / windowBuffer), else 0. */
    long recheckAt;

    Cursor(Partition partition, Group group, long next) {
        this.partition = partition;
        this.group = group;
        this.next = next;
    }

    boolean isConsumed(long seq) {
        return seq < next || doneAhead.contains(seq);
    }

    int attempts(Message message) {
        return message.baseAttempts + deliveries.getOrDefault(message.seq, 0);
    }

    /** Marks an entry consumed and moves {@code next} over every consumed or foreign entry. */
    void consume(long seq) {
        if (seq < next) {
            return;
        }
        deliveries.remove(seq);
        if (seq > next) {
            doneAhead.add(seq);
            return;
        }
        next++;
        normalize();
    }

    void normalize() {
        MessageLog log = partition.log;
        if (next < log.headSeq()) {
            next = log.headSeq();
            doneAhead.headSet(next).clear();
            deliveries.keySet().removeIf(seq -> seq < next);
        }
        while (next < log.tailSeq()) {
            if (doneAhead.remove(next)) {
                next++;
                continue;
            }
            Message entry = log.get(next);
            if (entry != null && !entry.visibleTo(group.name)) {
                next++;
                continue;
            }
            break;
        }
    }

    /** The first entry this group may be delivered, ignoring leases and timing options, or null. */
    Message firstDeliverable() {
        MessageLog log = partition.log;
        for (long seq = next; seq < log.tailSeq(); seq++) {
            if (doneAhead.contains(seq)) {
                continue;
            }
            Message entry = log.get(seq);
            if (entry != null && entry.visibleTo(group.name)) {
                return entry;
            }
        }
        return null;
    }

    /** Moves the cursor to {@code seq}, forgetting in-flight state. */
    void moveTo(long seq) {
        next = Math.max(seq, partition.log.headSeq());
        doneAhead.clear();
        deliveries.clear();
        batchRetries = 0;
        normalize();
    }
}
