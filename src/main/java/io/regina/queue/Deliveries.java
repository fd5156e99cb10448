package io.regina.queue;

import io.regina.queue.Result.Delivery;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;

/**
 * Decides deliveries: which partitions are ready for a group (its ready set, delayedProcessing and
 * windowBuffer re-checks), what a pop claims under which lease, and what the timers do when they
 * fire (lease expiry, delayed messages becoming due, re-checks). Leases end here too: extension,
 * expiry and dropping a claim.
 */
final class Deliveries {

    private final BrokerState state;
    /** What the timers fired at the start of the current apply, for the {@code Tick} result. */
    private int expiredByTimers;
    private int releasedByTimers;

    Deliveries(BrokerState state) {
        this.state = state;
    }

    int expiredByTimers() {
        return expiredByTimers;
    }

    int releasedByTimers() {
        return releasedByTimers;
    }

    // ---------------------------------------------------------------- timers

    /** Fires every timer due by {@code now}; counts what it did for the {@code Tick} result. */
    void fireTimers(long now) {
        expiredByTimers = 0;
        releasedByTimers = 0;
        Timers.Timer timer;
        while ((timer = state.timers.pollDue(now)) != null) {
            switch (timer.kind()) {
                case LEASE -> {
                    Lease lease = (Lease) timer.target();
                    if (state.leases.get(lease.id) != lease) {
                        continue;
                    }
                    if (lease.expiresAt != timer.due()) {
                        // Extended: fire at the new expiry's place in the order, even when that is
                        // already due, as a node that loaded a snapshot (one timer per lease) does.
                        state.timers.schedule(lease.expiresAt, Timers.Kind.LEASE, lease.id, 0, lease);
                        continue;
                    }
                    expire(lease);
                    expiredByTimers++;
                }
                case DELAYED -> {
                    DelayedMessage waiting = (DelayedMessage) timer.target();
                    BrokerQueue queue = waiting.partition.queue;
                    if (state.queues.get(queue.name) != queue || queue.delayed.remove(waiting.pendingSeq) == null) {
                        continue;
                    }
                    queue.storedMessages--;
                    waiting.partition.releaseDelayed(waiting.transactionId, waiting.id);
                    if (!waiting.partition.holdsDelayed(waiting.transactionId)) {
                        queue.delayedStripeOfTransaction.remove(waiting.transactionId, waiting.partition);
                    }
                    for (Group group : queue.groups.values()) {
                        if (waiting.onlyGroup == null || waiting.onlyGroup.equals(group.name)) {
                            MessageState.transition(MessageState.DELAYED, MessageState.PENDING);
                        }
                    }
                    state.pushes.append(waiting.partition, waiting.id, waiting.transactionId, waiting.traceId,
                            waiting.producerSub, waiting.bodyRef, waiting.createdAt, now, waiting.onlyGroup,
                            waiting.baseAttempts, waiting.retryOf);
                    releasedByTimers++;
                }
                case RECHECK -> {
                    Cursor cursor = (Cursor) timer.target();
                    if (cursor.recheckAt != timer.due() || !isLive(cursor)) {
                        continue;
                    }
                    cursor.recheckAt = 0;
                    cursor.markMaybeReady();
                    state.deliverable.add(cursor.group.queue.name);
                }
            }
        }
    }

    private boolean isLive(Cursor cursor) {
        BrokerQueue queue = cursor.group.queue;
        return state.queues.get(queue.name) == queue && queue.groups.get(cursor.group.name) == cursor.group;
    }

    private void expire(Lease lease) {
        state.leases.remove(lease.id);
        for (Claim claim : lease.claims) {
            claim.cursor.releaseClaim();
            claim.cursor.markMaybeReady();
            state.deliverable.add(lease.queue);
        }
        lease.claims.clear();
    }

    // ---------------------------------------------------------------- readiness

    /** Whether the group may take this partition now; schedules a re-check when only time holds it back. */
    private boolean isReadyNow(Cursor cursor, long now) {
        if (cursor.claim != null) {
            return false;
        }
        Message first = cursor.firstDeliverable();
        if (first == null) {
            return false;
        }
        QueueOptions options = cursor.partition.queue.options;
        long readyAt = 0;
        if (options.delayedProcessing() > 0) {
            readyAt = first.createdAt + options.delayedProcessing() * 1000L;
        }
        if (options.windowBuffer() > 0) {
            readyAt = Math.max(readyAt, cursor.partition.log.newest().appendedAt + options.windowBuffer() * 1000L);
        }
        if (readyAt > now) {
            if (cursor.recheckAt == 0 || readyAt < cursor.recheckAt) {
                cursor.recheckAt = readyAt;
                state.timers.schedule(readyAt, Timers.Kind.RECHECK,
                        cursor.partition.queue.name + "\u0000" + cursor.partition.name + "\u0000" + cursor.group.name,
                        0, cursor);
            }
            return false;
        }
        return true;
    }

    /** The first truly ready partition of the group, taken out of its ready set; stale entries are dropped. */
    private Cursor takeReady(Group group, long now) {
        Iterator<Cursor> candidates = group.ready.iterator();
        while (candidates.hasNext()) {
            Cursor cursor = candidates.next();
            candidates.remove();
            if (isReadyNow(cursor, now)) {
                return cursor;
            }
        }
        return null;
    }

    // ---------------------------------------------------------------- pop

    /** {@code leaseSeconds} above 0 is this pop's lease length, else the queue's {@code leaseTime}. */
    Result.Popped pop(Command.Pop c, int leaseSeconds, long now) {
        String groupName = Group.nameOf(c.group());
        BrokerQueue queue = state.queues.get(c.queue());
        if (queue == null || queue.paused || state.popMaintenanceMode) {
            return Result.Popped.empty(c.queue(), groupName);
        }
        if (!c.autoAck() && state.leases.containsKey(c.leaseId())) {
            // The same entry applied again: a leader that lost its term failed it after appending it, the
            // node proposed it again, and both copies committed. A second lease of this id would take the
            // first one's place and leave its claims with no timer to expire them, their partitions stuck;
            // nobody saw the first copy's answer, so its messages come back when that lease expires.
            return Result.Popped.empty(c.queue(), groupName);
        }
        Group group = groupFor(queue, groupName, c.subscriptionMode(), c.subscriptionFrom(), now);
        boolean wildcard = c.partition() == null || c.partition().isEmpty() || "Default".equals(c.partition());
        int maxPartitions = wildcard ? Math.max(1, c.partitions()) : 1;
        int budget = Math.max(1, c.batch());
        Lease lease = c.autoAck() ? null
                : new Lease(c.leaseId(), queue.name, groupName,
                        now + (leaseSeconds > 0 ? leaseSeconds * 1000L : queue.options.leaseMillis()));
        String leaseId = lease == null ? "" : lease.id;
        List<Delivery> delivered = new ArrayList<>();
        Partition first = null;
        int claimed = 0;
        while (claimed < maxPartitions && budget > 0) {
            Cursor cursor;
            if (wildcard) {
                cursor = takeReady(group, now);
            } else {
                Cursor named = group.cursors.get(c.partition());
                cursor = named != null && isReadyNow(named, now) ? named : null;
                if (cursor != null) {
                    group.ready.remove(cursor);
                }
            }
            if (cursor == null) {
                break;
            }
            int taken = claim(cursor, lease, leaseId, budget, delivered, now);
            if (taken == 0) {
                if (!wildcard) {
                    break;
                }
                continue;
            }
            if (first == null) {
                first = cursor.partition;
            }
            budget -= taken;
            claimed++;
        }
        if (delivered.isEmpty()) {
            return Result.Popped.empty(queue.name, groupName);
        }
        if (lease != null) {
            state.leases.put(lease.id, lease);
            state.timers.schedule(lease.expiresAt, Timers.Kind.LEASE, lease.id, 0, lease);
        }
        return new Result.Popped(queue.name, first.name, first.id, leaseId, groupName, delivered, claimed);
    }

    /** Delivers up to {@code budget} entries of the partition, FIFO; leased, or consumed at once (auto-ack). */
    private int claim(Cursor cursor, Lease lease, String leaseId, int budget, List<Delivery> delivered, long now) {
        Partition partition = cursor.partition;
        QueueOptions options = partition.queue.options;
        long createdCutoff = options.delayedProcessing() > 0 ? now - options.delayedProcessing() * 1000L
                : Long.MAX_VALUE;
        long[] taken = new long[Math.max(1, Math.min(budget, 16))];
        int count = 0;
        for (long seq = cursor.next; seq < partition.log.tailSeq() && count < budget; seq++) {
            if (cursor.isDoneAhead(seq)) {
                continue;
            }
            Message message = partition.log.get(seq);
            if (message == null || !message.visibleTo(cursor.group.name)) {
                continue;
            }
            if (message.createdAt > createdCutoff) {
                break;
            }
            cursor.countDeliveries(seq, 1);
            String id = message.id();
            delivered.add(new Delivery(id, message.transactionId(id), message.traceId,
                    state.bodies.get(message.bodyRef), message.producerSub, message.createdAt, partition.id,
                    partition.name, leaseId, cursor.group.name, cursor.attempts(message)));
            if (count == taken.length) {
                taken = Arrays.copyOf(taken, Math.min(budget, 2 * count));
            }
            taken[count++] = seq;
        }
        if (count == 0) {
            return 0;
        }
        if (lease == null) {
            for (int i = 0; i < count; i++) {
                cursor.consume(taken[i], MessageState.CONSUMED);
            }
            state.retention.compact(partition);
            cursor.markMaybeReady();
        } else {
            Claim claim = new Claim(lease, cursor);
            cursor.lease(claim, taken, count);
            lease.claims.add(claim);
        }
        return count;
    }

    /** The group of that name on the queue, created on its first read from where its subscription says. */
    Group groupFor(BrokerQueue queue, String name, SubscriptionMode mode, long from, long now) {
        Group group = queue.groups.get(name);
        if (group != null) {
            return group;
        }
        SubscriptionMode effective = mode == null ? SubscriptionMode.ALL : mode;
        long since = from;
        Long recorded = state.groupSubscriptions.get(name);
        if (effective == SubscriptionMode.ALL && recorded != null) {
            effective = SubscriptionMode.FROM;
            since = recorded;
        }
        long subscribedAt = switch (effective) {
            case ALL -> 0;
            case NEW -> now;
            case FROM -> since;
        };
        group = new Group(name, queue, subscribedAt);
        queue.groups.put(name, group);
        for (Partition partition : queue.partitions.values()) {
            long start = effective == SubscriptionMode.ALL ? partition.log.headSeq()
                    : partition.log.firstAppendedAfter(subscribedAt);
            Cursor cursor = new Cursor(partition, group, start);
            cursor.normalize();
            group.cursors.put(partition.name, cursor);
            cursor.markMaybeReady();
        }
        return group;
    }

    // ---------------------------------------------------------------- leases

    Result extendLease(Command.ExtendLease c, long now) {
        Lease lease = state.leases.get(c.leaseId());
        if (lease == null) {
            return Result.LeaseExtended.refused(c.leaseId(), Rejection.LEASE_NOT_FOUND, 0);
        }
        if (lease.expiresAt <= now) {
            return Result.LeaseExtended.refused(c.leaseId(), Rejection.LEASE_EXPIRED, lease.expiresAt);
        }
        if (lease.claims.isEmpty()) {
            return Result.LeaseExtended.refused(c.leaseId(), Rejection.LEASE_NOT_ACTIVE, lease.expiresAt);
        }
        lease.expiresAt = Math.max(lease.expiresAt, now + c.seconds() * 1000L);
        return Result.LeaseExtended.extended(c.leaseId(), lease.expiresAt);
    }

    /** Ends the cursor's claim; the lease ends with its last claim. */
    void dropClaim(Cursor cursor) {
        Claim claim = cursor.releaseClaim();
        if (claim == null) {
            return;
        }
        claim.lease.claims.remove(claim);
        if (claim.lease.claims.isEmpty()) {
            state.leases.remove(claim.lease.id);
            state.timers.resolvedEarly();
        }
    }
}
