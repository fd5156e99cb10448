package io.regina.queue;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
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
    /**
     * Entries consumed out of order ahead of {@code next}, and delivery counts of entries in flight: both null
     * while empty, as they are in almost every partition at rest (issue 8: a million drained partitions kept a
     * million empty sets and maps, 190 bytes and four objects each).
     */
    private TreeSet<Long> doneAhead;
    private Map<Long, Integer> deliveries;
    Claim claim;
    int batchRetries;
    /** When a readiness re-check is scheduled (delayedProcessing / windowBuffer), else 0. */
    long recheckAt;
    /** What this cursor adds to its group's sums, so a change adds only the difference. */
    private long countedPending;
    private long countedReserved;
    private long countedLag;
    private long countedSettled;
    private int countedClaims;

    Cursor(Partition partition, Group group, long next) {
        this.partition = partition;
        this.group = group;
        this.next = next;
        recount();
    }

    /**
     * Brings the group's sums up to date with this cursor. Called after every change of its position, its
     * claim or its partition's tail: unconsumed entries are those from {@code next} to the tail not consumed
     * ahead, pending those of them not leased.
     */
    void recount() {
        long consumedAhead = doneAheadCount();
        long unconsumed = partition.log.tailSeq() - next - consumedAhead;
        long reserved = claim == null ? 0 : claim.unresolvedCount();
        long pending = Math.max(0, unconsumed - reserved);
        long lag = Math.max(0, unconsumed);
        long settled = next + consumedAhead;
        int claims = claim == null ? 0 : 1;
        group.pending += pending - countedPending;
        group.reserved += reserved - countedReserved;
        group.lag += lag - countedLag;
        group.settled += settled - countedSettled;
        group.claimedPartitions += claims - countedClaims;
        countedPending = pending;
        countedReserved = reserved;
        countedLag = lag;
        countedSettled = settled;
        countedClaims = claims;
    }

    boolean isConsumed(long seq) {
        return seq < next || isDoneAhead(seq);
    }

    /** Whether {@code seq} was consumed out of order; asked without boxing it when none was, as is usual. */
    boolean isDoneAhead(long seq) {
        return doneAhead != null && doneAhead.contains(seq);
    }

    int doneAheadCount() {
        return doneAhead == null ? 0 : doneAhead.size();
    }

    /** The entries consumed out of order, ascending. */
    List<Long> doneAheadSeqs() {
        return doneAhead == null ? List.of() : new ArrayList<>(doneAhead);
    }

    /** Restores entries consumed out of order, as a snapshot recorded them. */
    void restoreDoneAhead(Collection<Long> seqs) {
        for (long seq : seqs) {
            markDoneAhead(seq);
        }
    }

    private void markDoneAhead(long seq) {
        if (doneAhead == null) {
            doneAhead = new TreeSet<>();
        }
        doneAhead.add(seq);
    }

    int attempts(Message message) {
        return message.baseAttempts + (deliveries == null ? 0 : deliveries.getOrDefault(message.seq, 0));
    }

    /** Counts one more delivery of an entry in flight ({@code times} when a snapshot restores it). */
    void countDeliveries(long seq, int times) {
        if (deliveries == null) {
            deliveries = new HashMap<>();
        }
        deliveries.merge(seq, times, Integer::sum);
    }

    /** Takes back one delivery of an entry handed back unstarted. */
    void uncountDelivery(long seq) {
        if (deliveries != null) {
            deliveries.computeIfPresent(seq, (at, count) -> count > 1 ? count - 1 : null);
            forgetDeliveriesWhenNone();
        }
    }

    /** The delivery counts of entries in flight, by ascending sequence number. */
    SortedMap<Long, Integer> deliveryCounts() {
        return deliveries == null ? Collections.emptySortedMap() : new TreeMap<>(deliveries);
    }

    private void forgetDeliveriesWhenNone() {
        if (deliveries != null && deliveries.isEmpty()) {
            deliveries = null;
        }
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
        if (deliveries != null) {
            deliveries.remove(seq);
            forgetDeliveriesWhenNone();
        }
        if (seq > next) {
            markDoneAhead(seq);
            recount();
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
        recount();
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
        recount();
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
            if (doneAhead != null) {
                doneAhead.headSet(next).clear();
            }
            if (deliveries != null) {
                deliveries.keySet().removeIf(seq -> seq < next);
                forgetDeliveriesWhenNone();
            }
        }
        while (next < log.tailSeq()) {
            if (doneAhead != null && doneAhead.remove(next)) {
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
        if (doneAhead != null && doneAhead.isEmpty()) {
            doneAhead = null;
        }
        recount();
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
        doneAhead = null;
        deliveries = null;
        batchRetries = 0;
        normalize();
    }
}
