package io.regina.queue;

import java.util.HashMap;
import java.util.Map;
import java.util.TreeSet;

/**
 * One consumer group's position in one partition (NATS' consumer state is the model): the next
 * entry to consume, entries consumed out of order ahead of it, delivery counts of entries in flight,
 * at most one lease, and the batch retry counter.
 *
 * <p>An entry is {@code CONSUMED} for the group before {@code next} or in {@code doneAhead},
 * {@code LEASED} while its claim holds it, else {@code PENDING} ({@link #stateOf(long)}). Its moves are
 * {@link #consume(long, MessageState)}, {@link #lease(Claim, long[], int)}, {@link #releaseClaim()} and
 * {@link #moveTo(long)}, each checked against the {@link MessageState} table.
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
        return seq < next || isDoneAhead(seq);
    }

    /** Whether {@code seq} was consumed out of order; asked without boxing it when none was, as is usual. */
    boolean isDoneAhead(long seq) {
        return !doneAhead.isEmpty() && doneAhead.contains(seq);
    }

    int attempts(Message message) {
        return message.baseAttempts + deliveries.getOrDefault(message.seq, 0);
    }

    /** This entry's state for the group, as the cursor and its claim say. */
    MessageState stateOf(long seq) {
        if (isConsumed(seq)) {
            return MessageState.CONSUMED;
        }
        return claim != null && claim.holds(seq) ? MessageState.LEASED : MessageState.PENDING;
    }

    /**
     * Takes an entry out of the group's queue, moving the message {@code to} a state the table allows:
     * consumed, failed (a failed-job row), or pending or delayed again as a new entry at the tail. It
     * marks the entry consumed here and moves {@code next} over every consumed or foreign entry.
     */
    void consume(long seq, MessageState to) {
        MessageState.transition(stateOf(seq), to);
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

    /** Puts pending entries under the claim of a lease. */
    void lease(Claim held, long[] seqs, int count) {
        for (int i = 0; i < count; i++) {
            MessageState.transition(stateOf(seqs[i]), MessageState.LEASED);
        }
        held.hold(seqs, count);
        claim = held;
    }

    /** Gives the claim up: its unresolved entries are pending again. Returns it, or null when none. */
    Claim releaseClaim() {
        Claim held = claim;
        if (held == null) {
            return null;
        }
        for (long seq : held.seqs()) {
            if (!held.isResolved(seq)) {
                MessageState.transition(stateOf(seq), MessageState.PENDING);
            }
        }
        claim = null;
        return held;
    }

    /** Offers this cursor to its group's ready set when it may have something to deliver. */
    void markMaybeReady() {
        if (claim == null && next < partition.log.tailSeq()) {
            group.ready.add(this);
        }
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

    /** Whether an entry this group may be delivered lies beyond its claim's, ignoring timing options. */
    boolean hasMoreThanClaimed() {
        MessageLog log = partition.log;
        Claim claimed = claim;
        for (long seq = next; seq < log.tailSeq(); seq++) {
            if (claimed != null && claimed.holds(seq) || isDoneAhead(seq)) {
                continue;
            }
            Message entry = log.get(seq);
            if (entry != null && entry.visibleTo(group.name)) {
                return true;
            }
        }
        return false;
    }

    /** The first entry this group may be delivered, ignoring leases and timing options, or null. */
    Message firstDeliverable() {
        MessageLog log = partition.log;
        for (long seq = next; seq < log.tailSeq(); seq++) {
            if (isDoneAhead(seq)) {
                continue;
            }
            Message entry = log.get(seq);
            if (entry != null && entry.visibleTo(group.name)) {
                return entry;
            }
        }
        return null;
    }

    /**
     * Moves the cursor to {@code seq}, forgetting in-flight state: the group's entries before it are
     * consumed, the others pending. The claim must be released first.
     */
    void moveTo(long seq) {
        long target = Math.max(seq, partition.log.headSeq());
        MessageLog log = partition.log;
        for (long at = Math.min(next, target); at < log.tailSeq(); at++) {
            Message entry = log.get(at);
            MessageState now = at < target ? MessageState.CONSUMED : MessageState.PENDING;
            if (entry != null && entry.visibleTo(group.name) && stateOf(at) != now) {
                MessageState.transition(stateOf(at), now);
            }
        }
        next = target;
        doneAhead.clear();
        deliveries.clear();
        batchRetries = 0;
        normalize();
    }
}
