package io.regina.queue;

import io.regina.queue.Command.AckItem;
import io.regina.queue.Result.AckOutcome;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Decides acknowledgements. {@link #decide} says what an ack item means in the current state (which
 * entry, which claim, or why it is refused) without changing anything: a plain ack and a transaction's
 * validation both ask it, so the two cannot disagree. {@link #ackOne} then carries the decision out
 * by its status: completed, dead letter, failed (hand-back within retryLimit, backoff, or failed for
 * good), retry, release.
 */
final class Acks {

    static final String RETRIES_EXHAUSTED = "Retries exhausted";
    private static final String MOVED_TO_DLQ = "Moved to the dead-letter queue";

    private final BrokerState state;

    Acks(BrokerState state) {
        this.state = state;
    }

    /**
     * What an ack means. {@code refusal} is null when it may apply; {@code partition} is null when
     * the partition is unknown; {@code settled} says the entry is already consumed or resolved, so the
     * ack succeeds without an effect (or, refused for its lease, could have touched nothing);
     * {@code inHandedBack} says the entry is in a claim this call gave back.
     */
    record Decision(Rejection refusal, Partition partition, Cursor cursor, Message message, Claim claim,
                    boolean inHandedBack, boolean settled) {

        static Decision refused(Rejection why, Partition partition) {
            return new Decision(why, partition, null, null, null, false, false);
        }

        String queueName() {
            return partition == null ? null : partition.queue.name;
        }

        String partitionName() {
            return partition == null ? null : partition.name;
        }
    }

    Result.Acked ack(List<AckItem> items, long now) {
        List<AckOutcome> outcomes = new ArrayList<>(items.size());
        Map<Cursor, Claim> handedBack = new HashMap<>();
        for (int i = 0; i < items.size(); i++) {
            outcomes.add(ackOne(i, items.get(i), now, false, handedBack));
        }
        return new Result.Acked(outcomes);
    }

    /**
     * The refusal of a fenced batch, or null: every ack that names a lease must find its message held by
     * it now, judged as {@link #decide} judges each ack against the state before any of them applies. A
     * stale ack of a message the group has already settled passes (it is refused on its own, per item):
     * it can touch no one's delivery, and it is what a client's retry of an applied ack looks like.
     */
    Result.Rejected fence(List<AckItem> items, long now) {
        for (AckItem item : items) {
            Decision decision = decide(item, now, Map.of());
            if (decision.refusal() == Rejection.LEASE_INVALID && !decision.settled()) {
                return Rejection.LEASE_NOT_HELD.reject(item.leaseId(), item.transactionId());
            }
        }
        return null;
    }

    /**
     * {@code handedBack}: claims this call already gave back (failed within retryLimit, retry), so the
     * other acks of the same batch in the call still find their lease and count the batch once. Inside a
     * transaction a failure is final: it dead-letters instead of handing the batch back.
     */
    Decision decide(AckItem item, long now, Map<Cursor, Claim> handedBack) {
        Partition partition = state.partitionsById.get(item.partitionId());
        if (partition == null) {
            return Decision.refused(Rejection.MESSAGE_NOT_FOUND, null);
        }
        Group group = partition.queue.groups.get(Group.nameOf(item.group()));
        Cursor cursor = group == null ? null : group.cursors.get(partition.name);
        Message message = cursor == null ? null
                : findForAck(partition, cursor, item.transactionId(), handedBack.get(cursor));
        if (message == null) {
            return Decision.refused(Rejection.MESSAGE_NOT_FOUND, partition);
        }
        Claim claim = cursor.claim != null && cursor.claim.holds(message.seq) ? cursor.claim : null;
        boolean leaseGiven = item.leaseId() != null && !item.leaseId().isEmpty();
        Claim given = claim == null ? handedBack.get(cursor) : null;
        boolean inHandedBack = given != null && given.holds(message.seq)
                && (!leaseGiven || given.lease.id.equals(item.leaseId()));
        boolean settled = cursor.isConsumed(message.seq) || (claim != null && claim.isResolved(message.seq));
        Rejection refusal = leaseGiven && !inHandedBack
                && (claim == null || !claim.lease.id.equals(item.leaseId()) || claim.lease.expiresAt <= now)
                ? Rejection.LEASE_INVALID : null;
        return new Decision(refusal, partition, cursor, message, claim, inHandedBack, settled);
    }

    AckOutcome ackOne(int index, AckItem item, long now, boolean inTransaction, Map<Cursor, Claim> handedBack) {
        Decision decision = decide(item, now, handedBack);
        String queueName = decision.queueName();
        String partitionName = decision.partitionName();
        if (decision.refusal() != null) {
            return AckOutcome.refused(index, item.transactionId(), decision.refusal(), queueName, partitionName);
        }
        if (decision.settled()) {
            return AckOutcome.succeeded(index, item.transactionId(), queueName, partitionName, false, false);
        }
        Cursor cursor = decision.cursor();
        Message message = decision.message();
        Claim claim = decision.claim();
        boolean released = false;
        boolean dlq = false;
        switch (item.status()) {
            case COMPLETED -> {
                cursor.consume(message.seq, MessageState.CONSUMED);
                released = resolve(claim, message.seq);
            }
            case DLQ -> {
                deadLetter(cursor, message, item.error() != null ? item.error() : MOVED_TO_DLQ, now);
                released = resolve(claim, message.seq);
                dlq = true;
            }
            case FAILED -> {
                if (inTransaction) {
                    deadLetter(cursor, message, item.error() != null ? item.error() : RETRIES_EXHAUSTED, now);
                    released = resolve(claim, message.seq);
                    dlq = true;
                } else if (item.delayMs() > 0) {
                    releaseLater(cursor, message, item.delayMs(), now);
                    released = resolve(claim, message.seq);
                } else if (decision.inHandedBack()) {
                    released = false;
                } else if (cursor.batchRetries < cursor.partition.queue.options.retryLimit()) {
                    cursor.batchRetries++;
                    released = handBack(cursor, claim, handedBack);
                } else {
                    deadLetter(cursor, message, item.error() != null ? item.error() : RETRIES_EXHAUSTED, now);
                    released = resolve(claim, message.seq);
                    dlq = true;
                }
            }
            case RETRY -> {
                cursor.uncountDelivery(message.seq);
                released = handBack(cursor, claim, handedBack);
            }
            case RELEASE -> {
                releaseLater(cursor, message, item.delayMs(), now);
                released = resolve(claim, message.seq);
            }
        }
        state.retention.compact(cursor.partition);
        return AckOutcome.succeeded(index, item.transactionId(), queueName, partitionName, released, dlq);
    }

    /** Gives the whole batch back to the group; true when there was a lease to release. */
    private boolean handBack(Cursor cursor, Claim claim, Map<Cursor, Claim> handedBack) {
        if (claim != null) {
            handedBack.put(cursor, claim);
            state.deliveries.dropClaim(cursor);
        }
        cursor.markMaybeReady();
        state.deliverable.add(cursor.partition.queue.name);
        return claim != null;
    }

    /**
     * The entry an ack means: one of the current claim, or of the claim this call handed back
     * ({@code handedBack}, may be null), else the group's newest entry of that transactionId.
     */
    private static Message findForAck(Partition partition, Cursor cursor, String transactionId, Claim handedBack) {
        for (Claim claim : new Claim[] {cursor.claim, handedBack}) {
            if (claim == null) {
                continue;
            }
            for (long seq : claim.seqs()) {
                Message leased = partition.log.get(seq);
                if (leased != null && leased.hasTransactionId(transactionId)) {
                    return leased;
                }
            }
        }
        Message newest = partition.transactions.get(transactionId);
        if (newest == null || newest.visibleTo(cursor.group.name)) {
            return newest;
        }
        // The newest entry is another group's released or retried copy: this group's entry is behind it.
        for (long seq = newest.seq - 1; seq >= partition.log.headSeq(); seq--) {
            Message entry = partition.log.get(seq);
            if (entry.hasTransactionId(transactionId) && entry.visibleTo(cursor.group.name)) {
                return entry;
            }
        }
        return null;
    }

    /** Marks an entry of a claim resolved; releases the claim, and the lease, once all are. */
    private boolean resolve(Claim claim, long seq) {
        if (claim == null) {
            return false;
        }
        claim.resolve(seq);
        claim.cursor.recount();
        if (!claim.allResolved()) {
            return false;
        }
        Cursor cursor = claim.cursor;
        state.deliveries.dropClaim(cursor);
        cursor.batchRetries = 0;
        cursor.markMaybeReady();
        state.deliverable.add(cursor.partition.queue.name);
        return true;
    }

    private void deadLetter(Cursor cursor, Message message, String error, long now) {
        Partition partition = cursor.partition;
        String uuid = Ids.timeOrdered(now, message.id() + "/" + partition.id + "/" + cursor.group.name + "/" + message.seq);
        int attempts = cursor.attempts(message);
        cursor.consume(message.seq, MessageState.FAILED);
        state.failedJobs.add(new FailedJob(uuid, partition.queue.name, partition.name, partition.id, cursor.group.name,
                message.id(), message.transactionId(), message.traceId, state.bodies.get(message.bodyRef), error,
                attempts, message.producerSub, message.createdAt, now, message.retryOf));
    }

    /** The job leaves its place and re-enters at the tail after the delay, for this group only. */
    private void releaseLater(Cursor cursor, Message message, long delayMs, long now) {
        int attempts = cursor.attempts(message);
        cursor.consume(message.seq, delayMs > 0 ? MessageState.DELAYED : MessageState.PENDING);
        long copy = state.bodies.put(state.bodies.get(message.bodyRef));
        if (delayMs > 0) {
            state.pushes.delay(cursor.partition, message.id(), message.transactionId(), message.traceId,
                    message.producerSub, copy, message.createdAt, now + delayMs, cursor.group.name, attempts,
                    message.retryOf);
        } else {
            state.pushes.append(cursor.partition, message.id(), message.transactionId(), message.traceId,
                    message.producerSub, copy, message.createdAt, now, cursor.group.name, attempts, message.retryOf);
        }
    }
}
