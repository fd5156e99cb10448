package io.regina.queue;

import io.regina.queue.Command.AckItem;
import io.regina.queue.Command.PushItem;
import io.regina.queue.Result.AckOutcome;
import io.regina.queue.Result.Delivery;
import io.regina.queue.Result.PushOutcome;
import io.regina.queue.Result.PushStatus;
import io.regina.queue.Result.Rejected;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The whole broker: queues, partitions, consumer groups, leases, delayed messages, failed jobs.
 *
 * <p>{@link #apply(Command, long)} is a deterministic function of this state, the command and the
 * leader-stamped time; only the state machine's apply thread calls it. Timers (lease expiry,
 * delayed messages, readiness re-checks) fire lazily at the start of every apply and on each
 * {@link Command.Tick}. Reads go through the public accessors under the caller's read lock.
 */
public final class BrokerState {

    static final int MAX_TRACES = 10_000;
    static final String RETRIES_EXHAUSTED = "Retries exhausted";

    final Map<String, BrokerQueue> queues = new LinkedHashMap<>();
    final Map<String, Partition> partitionsById = new HashMap<>();
    final Map<String, Lease> leases = new LinkedHashMap<>();
    final FailedJobTable failedJobs = new FailedJobTable();
    final Map<String, Long> groupSubscriptions = new LinkedHashMap<>();
    final Deque<Trace> traces = new ArrayDeque<>();
    final List<PushItem> buffered = new ArrayList<>();
    final Timers timers = new Timers();
    final MessageStore bodies;
    boolean maintenanceMode;
    boolean popMaintenanceMode;
    long nextPendingSeq = 1;
    long lastNow;
    /** What the timers fired at the start of the current apply (not state: reset every apply). */
    private int expiredByTimers;
    private int releasedByTimers;
    private final Set<String> deliverable = new LinkedHashSet<>();

    /** A recorded trace event. */
    public record Trace(String traceId, String transactionId, String partitionId, String consumerGroup,
                        List<String> traceNames, String eventType, String data, long createdAt) { }

    public BrokerState() {
        this(new InMemoryMessageStore());
    }

    public BrokerState(MessageStore bodies) {
        this.bodies = bodies;
    }

    // ---------------------------------------------------------------- apply

    public Result apply(Command command, long now) {
        now = Math.max(now, lastNow);
        lastNow = now;
        fireTimers(now);
        if (command instanceof Command.Configure c) {
            return configure(c);
        } else if (command instanceof Command.DeleteQueue c) {
            return deleteQueue(c.queue());
        } else if (command instanceof Command.Push c) {
            return push(c.items(), now);
        } else if (command instanceof Command.Pop c) {
            return pop(c, now);
        } else if (command instanceof Command.Ack c) {
            return ack(c.items(), now, false);
        } else if (command instanceof Command.Transaction c) {
            return transaction(c, now);
        } else if (command instanceof Command.ExtendLease c) {
            return extendLease(c, now);
        } else if (command instanceof Command.RecordTrace c) {
            return recordTrace(c, now);
        } else if (command instanceof Command.DeleteGroup c) {
            return deleteGroup(c);
        } else if (command instanceof Command.Seek c) {
            return seek(c);
        } else if (command instanceof Command.SetSubscription c) {
            return setSubscription(c);
        } else if (command instanceof Command.SetMaintenance c) {
            return setMaintenance(c, now);
        } else if (command instanceof Command.Tick c) {
            return tick(now);
        } else if (command instanceof Command.PauseQueue c) {
            return pause(c);
        } else if (command instanceof Command.ClearQueue c) {
            return clear(c.queue());
        } else if (command instanceof Command.RetryFailedJobs c) {
            return retryFailedJobs(c, now);
        } else if (command instanceof Command.RetryFailedJob c) {
            return retryFailedJob(c, now);
        } else if (command instanceof Command.ForgetFailedJob c) {
            return forgetFailedJob(c.uuid());
        } else if (command instanceof Command.RemoveFailedJobs c) {
            return removeFailedJobs(c, now);
        }
        throw new IllegalArgumentException("unknown command " + command);
    }

    /** Names of queues where messages may have become deliverable since the last call. */
    public List<String> drainDeliverable() {
        if (deliverable.isEmpty()) {
            return List.of();
        }
        List<String> names = new ArrayList<>(deliverable);
        deliverable.clear();
        return names;
    }

    // ---------------------------------------------------------------- queues

    private Result configure(Command.Configure c) {
        BrokerQueue queue = queues.get(c.queue());
        if (queue == null) {
            queue = createQueue(c.queue(), c.namespace(), c.task(), c.options());
        } else {
            queue.options = c.options();
            queue.namespace = c.namespace() != null ? c.namespace() : queue.namespace;
            queue.task = c.task() != null ? c.task() : queue.task;
        }
        Partition partition = partition(queue, "Default");
        return new Result.Configured(queue.id, partition.id, queue.name, queue.namespace, queue.task, queue.options);
    }

    private BrokerQueue createQueue(String name, String namespace, String task, QueueOptions options) {
        BrokerQueue queue = new BrokerQueue(name,
                namespace != null ? namespace : BrokerQueue.defaultNamespace(name),
                task != null ? task : BrokerQueue.defaultTask(name), options);
        queues.put(name, queue);
        queue.groups.put(Group.QUEUE_MODE, new Group(Group.QUEUE_MODE, queue, 0));
        return queue;
    }

    private Partition partition(BrokerQueue queue, String name) {
        Partition partition = queue.partitions.get(name);
        if (partition == null) {
            partition = new Partition(queue, name, 0);
            queue.partitions.put(name, partition);
            partitionsById.put(partition.id, partition);
            for (Group group : queue.groups.values()) {
                group.cursors.put(name, new Cursor(partition, group, partition.log.headSeq()));
            }
        }
        return partition;
    }

    private Result deleteQueue(String name) {
        BrokerQueue queue = queues.remove(name);
        if (queue == null) {
            return new Result.QueueDeleted(name, false);
        }
        for (Group group : queue.groups.values()) {
            for (Cursor cursor : group.cursors.values()) {
                dropClaim(cursor);
            }
        }
        for (Partition partition : queue.partitions.values()) {
            partitionsById.remove(partition.id);
            for (Message message : partition.log.entries()) {
                bodies.remove(message.bodyRef);
            }
        }
        for (DelayedMessage waiting : queue.delayed.values()) {
            bodies.remove(waiting.bodyRef);
        }
        for (String uuid : failedJobs.uuidsOfQueue(name)) {
            failedJobs.remove(uuid);
        }
        return new Result.QueueDeleted(name, true);
    }

    private Result pause(Command.PauseQueue c) {
        BrokerQueue queue = queues.get(c.queue());
        if (queue == null) {
            return new Rejected(Rejection.NOT_FOUND, "Queue '" + c.queue() + "' does not exist");
        }
        queue.paused = c.paused();
        if (!c.paused()) {
            deliverable.add(queue.name);
        }
        return new Result.QueuePaused(queue.name, queue.paused);
    }

    /** Removes every message no group has consumed yet, and all delayed ones; leased ones stay. */
    private Result clear(String name) {
        BrokerQueue queue = queues.get(name);
        if (queue == null) {
            return new Result.Cleared(name, 0);
        }
        long cleared = 0;
        for (DelayedMessage waiting : queue.delayed.values()) {
            waiting.partition.delayedTransactionIds.remove(waiting.transactionId);
            bodies.remove(waiting.bodyRef);
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
                    for (long seq : cursor.claim.seqs) {
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
                        cursor.consume(seq);
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
            if (cursor.claim != null && cursor.claim.holds(seq) && !cursor.claim.resolved.contains(seq)) {
                return true;
            }
        }
        return false;
    }

    // ---------------------------------------------------------------- push

    private Result push(List<PushItem> items, long now) {
        if (maintenanceMode) {
            List<PushOutcome> outcomes = new ArrayList<>(items.size());
            for (int i = 0; i < items.size(); i++) {
                PushItem item = items.get(i);
                buffered.add(item);
                outcomes.add(new PushOutcome(i, item.transactionId(), PushStatus.BUFFERED, item.messageId(), null,
                        item.traceId(), item.queue()));
            }
            return new Result.Pushed(outcomes);
        }
        Rejected full = checkCapacity(items);
        if (full != null) {
            return full;
        }
        List<PushOutcome> outcomes = new ArrayList<>(items.size());
        for (int i = 0; i < items.size(); i++) {
            outcomes.add(pushOne(i, items.get(i), now));
        }
        return new Result.Pushed(outcomes);
    }

    private Rejected checkCapacity(List<PushItem> items) {
        Map<String, Long> incoming = new HashMap<>();
        for (PushItem item : items) {
            incoming.merge(item.queue(), 1L, Long::sum);
        }
        for (Map.Entry<String, Long> entry : incoming.entrySet()) {
            BrokerQueue queue = queues.get(entry.getKey());
            if (queue != null && queue.options.maxSize() > 0
                    && queue.storedMessages + entry.getValue() > queue.options.maxSize()) {
                return new Rejected(Rejection.QUEUE_FULL, "Queue '" + queue.name + "' is full: it holds "
                        + queue.storedMessages + " of maxSize " + queue.options.maxSize()
                        + " messages; consume some or raise maxSize");
            }
        }
        return null;
    }

    private PushOutcome pushOne(int index, PushItem item, long now) {
        BrokerQueue queue = queues.get(item.queue());
        if (queue == null) {
            queue = createQueue(item.queue(), null, null, QueueOptions.defaults());
        }
        Partition partition = partition(queue, partitionNameFor(queue, item.partition(), item.transactionId()));
        String original = partition.duplicateOf(item.transactionId());
        if (original != null) {
            return new PushOutcome(index, item.transactionId(), PushStatus.DUPLICATE, original, partition.id, null,
                    queue.name);
        }
        long bodyRef = bodies.put(item.payload());
        long dueAt = Math.max(item.availableAt(), item.delayMs() > 0 ? now + item.delayMs() : 0);
        if (dueAt > now) {
            delay(partition, item.messageId(), item.transactionId(), item.traceId(), item.producerSub(), bodyRef,
                    now, dueAt, null, 0, null);
        } else {
            append(partition, item.messageId(), item.transactionId(), item.traceId(), item.producerSub(), bodyRef,
                    now, now, null, 0, null);
        }
        return new PushOutcome(index, item.transactionId(), PushStatus.QUEUED, item.messageId(), partition.id,
                item.traceId(), queue.name);
    }

    private String partitionNameFor(BrokerQueue queue, String requested, String transactionId) {
        if (requested != null && !requested.isEmpty()) {
            return requested;
        }
        int stripes = queue.options.stripes();
        if (stripes <= 1) {
            return "Default";
        }
        return "stripe-" + stripeOf(transactionId, stripes);
    }

    /**
     * A transactionId always lands on the same stripe, so dedup holds across the queue; ids are
     * random or distinct enough that the mixed hash spreads them evenly.
     */
    static int stripeOf(String transactionId, int stripes) {
        int h = transactionId.hashCode();
        h ^= h >>> 16;
        h *= 0x85ebca6b;
        h ^= h >>> 13;
        h *= 0xc2b2ae35;
        h ^= h >>> 16;
        return Math.floorMod(h, stripes);
    }

    private void append(Partition partition, String id, String transactionId, String traceId, String producerSub,
                        long bodyRef, long createdAt, long now, String onlyGroup, int baseAttempts, String retryOf) {
        Message message = new Message(partition.log.takeSeq(), id, transactionId, traceId, producerSub, bodyRef,
                createdAt, now, onlyGroup, baseAttempts, retryOf);
        partition.log.append(message);
        partition.byTransactionId.put(transactionId, message);
        partition.queue.storedMessages++;
        for (Group group : partition.queue.groups.values()) {
            if (message.visibleTo(group.name)) {
                markMaybeReady(group.cursors.get(partition.name));
            }
        }
        deliverable.add(partition.queue.name);
    }

    private void delay(Partition partition, String id, String transactionId, String traceId, String producerSub,
                       long bodyRef, long createdAt, long dueAt, String onlyGroup, int baseAttempts, String retryOf) {
        DelayedMessage waiting = new DelayedMessage(nextPendingSeq++, partition, id, transactionId, traceId,
                producerSub, bodyRef, createdAt, dueAt, onlyGroup, baseAttempts, retryOf);
        partition.queue.delayed.put(waiting.pendingSeq, waiting);
        partition.queue.storedMessages++;
        // A released copy is still stored, so it keeps its transactionId taken too.
        partition.delayedTransactionIds.put(transactionId, id);
        timers.schedule(dueAt, Timers.Kind.DELAYED, "", waiting.pendingSeq, waiting);
    }

    // ---------------------------------------------------------------- timers and readiness

    /** Fires every timer due by {@code now}; counts what it did for the {@code Tick} result. */
    private void fireTimers(long now) {
        expiredByTimers = 0;
        releasedByTimers = 0;
        Timers.Timer timer;
        while ((timer = timers.pollDue(now)) != null) {
            switch (timer.kind()) {
                case LEASE -> {
                    Lease lease = (Lease) timer.target();
                    if (leases.get(lease.id) != lease) {
                        continue;
                    }
                    if (lease.expiresAt != timer.due()) {
                        // Extended: fire at the new expiry's place in the order, even when that is
                        // already due, as a node that loaded a snapshot (one timer per lease) does.
                        timers.schedule(lease.expiresAt, Timers.Kind.LEASE, lease.id, 0, lease);
                        continue;
                    }
                    expire(lease);
                    expiredByTimers++;
                }
                case DELAYED -> {
                    DelayedMessage waiting = (DelayedMessage) timer.target();
                    BrokerQueue queue = waiting.partition.queue;
                    if (queues.get(queue.name) != queue || queue.delayed.remove(waiting.pendingSeq) == null) {
                        continue;
                    }
                    queue.storedMessages--;
                    waiting.partition.delayedTransactionIds.remove(waiting.transactionId, waiting.id);
                    append(waiting.partition, waiting.id, waiting.transactionId, waiting.traceId,
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
                    markMaybeReady(cursor);
                    deliverable.add(cursor.group.queue.name);
                }
            }
        }
    }

    private boolean isLive(Cursor cursor) {
        BrokerQueue queue = cursor.group.queue;
        return queues.get(queue.name) == queue && queue.groups.get(cursor.group.name) == cursor.group;
    }

    private void expire(Lease lease) {
        leases.remove(lease.id);
        for (Claim claim : lease.claims) {
            claim.cursor.claim = null;
            markMaybeReady(claim.cursor);
            deliverable.add(lease.queue);
        }
        lease.claims.clear();
    }

    private static void markMaybeReady(Cursor cursor) {
        if (cursor.claim == null && cursor.next < cursor.partition.log.tailSeq()) {
            cursor.group.ready.add(cursor);
        }
    }

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
                timers.schedule(readyAt, Timers.Kind.RECHECK,
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

    private Result pop(Command.Pop c, long now) {
        String groupName = c.group() == null || c.group().isEmpty() ? Group.QUEUE_MODE : c.group();
        BrokerQueue queue = queues.get(c.queue());
        if (queue == null || queue.paused || popMaintenanceMode) {
            return Result.Popped.empty(c.queue(), groupName);
        }
        Group group = groupFor(queue, groupName, c.subscriptionMode(), c.subscriptionFrom(), now);
        boolean wildcard = c.partition() == null || c.partition().isEmpty() || "Default".equals(c.partition());
        int maxPartitions = wildcard ? Math.max(1, c.partitions()) : 1;
        int budget = Math.max(1, c.batch());
        Lease lease = c.autoAck() ? null
                : new Lease(c.leaseId(), queue.name, groupName, now + queue.options.leaseMillis());
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
            leases.put(lease.id, lease);
            timers.schedule(lease.expiresAt, Timers.Kind.LEASE, lease.id, 0, lease);
        }
        return new Result.Popped(queue.name, first.name, first.id, leaseId, groupName, delivered, claimed);
    }

    private int claim(Cursor cursor, Lease lease, String leaseId, int budget, List<Delivery> delivered, long now) {
        Partition partition = cursor.partition;
        QueueOptions options = partition.queue.options;
        long createdCutoff = options.delayedProcessing() > 0 ? now - options.delayedProcessing() * 1000L
                : Long.MAX_VALUE;
        Claim claim = lease == null ? null : new Claim(lease, cursor);
        List<Long> taken = new ArrayList<>();
        for (long seq = cursor.next; seq < partition.log.tailSeq() && taken.size() < budget; seq++) {
            if (cursor.doneAhead.contains(seq)) {
                continue;
            }
            Message message = partition.log.get(seq);
            if (message == null || !message.visibleTo(cursor.group.name)) {
                continue;
            }
            if (message.createdAt > createdCutoff) {
                break;
            }
            cursor.deliveries.merge(seq, 1, Integer::sum);
            delivered.add(new Delivery(message.id, message.transactionId, message.traceId,
                    bodies.get(message.bodyRef), message.producerSub, message.createdAt, partition.id, partition.name,
                    leaseId, cursor.group.name, cursor.attempts(message)));
            taken.add(seq);
        }
        if (taken.isEmpty()) {
            return 0;
        }
        if (claim == null) {
            for (long seq : taken) {
                cursor.consume(seq);
            }
            compact(partition);
            markMaybeReady(cursor);
        } else {
            claim.seqs.addAll(taken);
            cursor.claim = claim;
            lease.claims.add(claim);
        }
        return taken.size();
    }

    private Group groupFor(BrokerQueue queue, String name, SubscriptionMode mode, long from, long now) {
        Group group = queue.groups.get(name);
        if (group != null) {
            return group;
        }
        SubscriptionMode effective = mode == null ? SubscriptionMode.ALL : mode;
        long since = from;
        Long recorded = groupSubscriptions.get(name);
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
            markMaybeReady(cursor);
        }
        return group;
    }

    // ---------------------------------------------------------------- ack

    private Result ack(List<AckItem> items, long now, boolean inTransaction) {
        List<AckOutcome> outcomes = new ArrayList<>(items.size());
        Map<Cursor, Claim> handedBack = new HashMap<>();
        for (int i = 0; i < items.size(); i++) {
            outcomes.add(ackOne(i, items.get(i), now, inTransaction, handedBack));
        }
        return new Result.Acked(outcomes);
    }

    /**
     * {@code handedBack}: claims this call already gave back (failed within retryLimit, retry), so the
     * other acks of the same batch in the call still find their lease and count the batch once.
     */
    private AckOutcome ackOne(int index, AckItem item, long now, boolean inTransaction,
                              Map<Cursor, Claim> handedBack) {
        Partition partition = partitionsById.get(item.partitionId());
        if (partition == null) {
            return new AckOutcome(index, item.transactionId(), false, "Message not found", null, null, false, false);
        }
        String queueName = partition.queue.name;
        String groupName = item.group() == null || item.group().isEmpty() ? Group.QUEUE_MODE : item.group();
        Group group = partition.queue.groups.get(groupName);
        Cursor cursor = group == null ? null : group.cursors.get(partition.name);
        Message message = cursor == null ? null
                : findForAck(partition, cursor, item.transactionId(), handedBack.get(cursor));
        if (message == null) {
            return new AckOutcome(index, item.transactionId(), false, "Message not found", queueName, partition.name,
                    false, false);
        }
        Claim claim = cursor.claim != null && cursor.claim.holds(message.seq) ? cursor.claim : null;
        boolean leaseGiven = item.leaseId() != null && !item.leaseId().isEmpty();
        Claim given = claim == null ? handedBack.get(cursor) : null;
        boolean inHandedBack = given != null && given.holds(message.seq)
                && (!leaseGiven || given.lease.id.equals(item.leaseId()));
        if (leaseGiven && !inHandedBack && (claim == null || !claim.lease.id.equals(item.leaseId()) || claim.lease.expiresAt <= now)) {
            return new AckOutcome(index, item.transactionId(), false, "Invalid or expired lease", queueName,
                    partition.name, false, false);
        }
        if (cursor.isConsumed(message.seq) || (claim != null && claim.resolved.contains(message.seq))) {
            return new AckOutcome(index, item.transactionId(), true, null, queueName, partition.name, false, false);
        }
        boolean released = false;
        boolean dlq = false;
        switch (item.status()) {
            case COMPLETED -> {
                cursor.consume(message.seq);
                released = resolve(claim, message.seq);
            }
            case DLQ -> {
                deadLetter(cursor, message, item.error() != null ? item.error() : "Moved to the dead-letter queue", now);
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
                } else if (inHandedBack) {
                    released = false;
                } else if (cursor.batchRetries < partition.queue.options.retryLimit()) {
                    cursor.batchRetries++;
                    if (claim != null) {
                        handedBack.put(cursor, claim);
                        dropClaim(cursor);
                        released = true;
                    }
                    markMaybeReady(cursor);
                    deliverable.add(queueName);
                } else {
                    deadLetter(cursor, message, item.error() != null ? item.error() : RETRIES_EXHAUSTED, now);
                    released = resolve(claim, message.seq);
                    dlq = true;
                }
            }
            case RETRY -> {
                cursor.deliveries.computeIfPresent(message.seq, (seq, count) -> count > 1 ? count - 1 : null);
                if (claim != null) {
                    handedBack.put(cursor, claim);
                    dropClaim(cursor);
                    released = true;
                }
                markMaybeReady(cursor);
                deliverable.add(queueName);
            }
            case RELEASE -> {
                releaseLater(cursor, message, item.delayMs(), now);
                released = resolve(claim, message.seq);
            }
        }
        compact(partition);
        return new AckOutcome(index, item.transactionId(), true, null, queueName, partition.name, released, dlq);
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
            for (long seq : claim.seqs) {
                Message leased = partition.log.get(seq);
                if (leased != null && leased.transactionId.equals(transactionId)) {
                    return leased;
                }
            }
        }
        Message newest = partition.byTransactionId.get(transactionId);
        if (newest == null || newest.visibleTo(cursor.group.name)) {
            return newest;
        }
        // The newest entry is another group's released or retried copy: this group's entry is behind it.
        for (long seq = newest.seq - 1; seq >= partition.log.headSeq(); seq--) {
            Message entry = partition.log.get(seq);
            if (entry.transactionId.equals(transactionId) && entry.visibleTo(cursor.group.name)) {
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
        claim.resolved.add(seq);
        if (!claim.allResolved()) {
            return false;
        }
        Cursor cursor = claim.cursor;
        dropClaim(cursor);
        cursor.batchRetries = 0;
        markMaybeReady(cursor);
        deliverable.add(cursor.partition.queue.name);
        return true;
    }

    private void dropClaim(Cursor cursor) {
        Claim claim = cursor.claim;
        if (claim == null) {
            return;
        }
        cursor.claim = null;
        claim.lease.claims.remove(claim);
        if (claim.lease.claims.isEmpty()) {
            leases.remove(claim.lease.id);
        }
    }

    private void deadLetter(Cursor cursor, Message message, String error, long now) {
        Partition partition = cursor.partition;
        String uuid = Ids.timeOrdered(now, message.id + "/" + partition.id + "/" + cursor.group.name + "/" + message.seq);
        failedJobs.add(new FailedJob(uuid, partition.queue.name, partition.name, partition.id, cursor.group.name,
                message.id, message.transactionId, message.traceId, bodies.get(message.bodyRef), error,
                cursor.attempts(message), message.producerSub, message.createdAt, now, message.retryOf));
        cursor.consume(message.seq);
    }

    /** The job leaves its place and re-enters at the tail after the delay, for this group only. */
    private void releaseLater(Cursor cursor, Message message, long delayMs, long now) {
        int attempts = cursor.attempts(message);
        long copy = bodies.put(bodies.get(message.bodyRef));
        cursor.consume(message.seq);
        if (delayMs > 0) {
            delay(cursor.partition, message.id, message.transactionId, message.traceId, message.producerSub, copy,
                    message.createdAt, now + delayMs, cursor.group.name, attempts, message.retryOf);
        } else {
            append(cursor.partition, message.id, message.transactionId, message.traceId, message.producerSub, copy,
                    message.createdAt, now, cursor.group.name, attempts, message.retryOf);
        }
    }

    /** In a queue read only in queue mode, drops consumed entries from the head (completedRetentionSeconds 0). */
    private void compact(Partition partition) {
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
        if (partition.byTransactionId.get(message.transactionId) == message) {
            partition.byTransactionId.remove(message.transactionId);
        }
        bodies.remove(message.bodyRef);
        partition.queue.storedMessages--;
    }

    // ---------------------------------------------------------------- transaction

    private Result transaction(Command.Transaction c, long now) {
        String invalid = validateTransaction(c, now);
        if (invalid != null) {
            return new Result.TransactionDone(false, invalid, List.of());
        }
        List<Result.TxOutcome> results = new ArrayList<>();
        Map<Cursor, Claim> handedBack = new HashMap<>();
        int index = 0;
        for (Command.TxOperation operation : c.operations()) {
            if (operation instanceof Command.TxPush push) {
                for (PushItem item : push.items()) {
                    PushOutcome outcome = pushOne(index, item, now);
                    results.add(new Result.TxOutcome(index++, "push", true, outcome.transactionId(),
                            outcome.messageId(), outcome.partitionId(), outcome.queue(), null, false));
                }
            } else if (operation instanceof Command.TxAck ack) {
                AckOutcome outcome = ackOne(index, ack.item(), now, true, handedBack);
                results.add(new Result.TxOutcome(index++, "ack", outcome.success(), outcome.transactionId(), null,
                        ack.item().partitionId(), outcome.queue(), outcome.error(), outcome.dlq()));
            }
        }
        return new Result.TransactionDone(true, null, results);
    }

    /** Checks every operation against the state before any applies: a transaction is all or nothing. */
    private String validateTransaction(Command.Transaction c, long now) {
        for (String leaseId : c.requiredLeases()) {
            Lease lease = leases.get(leaseId);
            if (lease == null || lease.expiresAt <= now) {
                return "Required lease " + leaseId + " is not active";
            }
        }
        List<PushItem> pushes = new ArrayList<>();
        Set<String> keys = new HashSet<>();
        for (Command.TxOperation operation : c.operations()) {
            if (operation instanceof Command.TxPush push) {
                for (PushItem item : push.items()) {
                    BrokerQueue queue = queues.get(item.queue());
                    String partitionName = plannedPartition(queue, item);
                    Partition partition = queue == null ? null : queue.partitions.get(partitionName);
                    if ((partition != null && partition.duplicateOf(item.transactionId()) != null)
                            || !keys.add(item.queue() + "\u0000" + partitionName + "\u0000" + item.transactionId())) {
                        return "Duplicate transactionId " + item.transactionId() + " in queue " + item.queue();
                    }
                    pushes.add(item);
                }
            } else if (operation instanceof Command.TxAck ack) {
                String error = checkAck(ack.item(), now);
                if (error != null) {
                    return error + " (transactionId " + ack.item().transactionId() + ")";
                }
            }
        }
        Rejected full = checkCapacity(pushes);
        return full == null ? null : full.message();
    }

    private String plannedPartition(BrokerQueue queue, PushItem item) {
        if (item.partition() != null && !item.partition().isEmpty()) {
            return item.partition();
        }
        int stripes = queue == null ? 1 : queue.options.stripes();
        return stripes <= 1 ? "Default" : "stripe-" + stripeOf(item.transactionId(), stripes);
    }

    private String checkAck(AckItem item, long now) {
        Partition partition = partitionsById.get(item.partitionId());
        String groupName = item.group() == null || item.group().isEmpty() ? Group.QUEUE_MODE : item.group();
        Group group = partition == null ? null : partition.queue.groups.get(groupName);
        Cursor cursor = group == null ? null : group.cursors.get(partition.name);
        Message message = cursor == null ? null : findForAck(partition, cursor, item.transactionId(), null);
        if (message == null) {
            return "Message not found";
        }
        if (item.leaseId() != null && !item.leaseId().isEmpty()) {
            Claim claim = cursor.claim;
            if (claim == null || !claim.holds(message.seq) || !claim.lease.id.equals(item.leaseId())
                    || claim.lease.expiresAt <= now) {
                return "Invalid or expired lease";
            }
        }
        return null;
    }

    // ---------------------------------------------------------------- leases, traces, groups

    private Result extendLease(Command.ExtendLease c, long now) {
        Lease lease = leases.get(c.leaseId());
        if (lease == null) {
            return new Result.LeaseExtended(c.leaseId(), false, "Lease not found", 0);
        }
        if (lease.expiresAt <= now) {
            return new Result.LeaseExtended(c.leaseId(), false, "Lease already expired", lease.expiresAt);
        }
        if (lease.claims.isEmpty()) {
            return new Result.LeaseExtended(c.leaseId(), false, "Lease not active", lease.expiresAt);
        }
        lease.expiresAt = Math.max(lease.expiresAt, now + c.seconds() * 1000L);
        return new Result.LeaseExtended(c.leaseId(), true, null, lease.expiresAt);
    }

    private Result recordTrace(Command.RecordTrace c, long now) {
        traces.addLast(new Trace(c.traceId(), c.transactionId(), c.partitionId(), c.group(), List.copyOf(c.traceNames()),
                c.eventType(), c.data(), now));
        while (traces.size() > MAX_TRACES) {
            traces.removeFirst();
        }
        return new Result.TraceRecorded(c.traceId());
    }

    private Result deleteGroup(Command.DeleteGroup c) {
        int deleted = 0;
        List<BrokerQueue> targets = new ArrayList<>();
        if (c.queue() == null) {
            targets.addAll(queues.values());
        } else if (queues.containsKey(c.queue())) {
            targets.add(queues.get(c.queue()));
        }
        for (BrokerQueue queue : targets) {
            Group group = queue.groups.remove(c.group());
            if (group == null) {
                continue;
            }
            for (Cursor cursor : group.cursors.values()) {
                dropClaim(cursor);
                deleted++;
            }
            if (group.isQueueMode()) {
                Group fresh = new Group(Group.QUEUE_MODE, queue, 0);
                queue.groups.put(Group.QUEUE_MODE, fresh);
                for (Partition partition : queue.partitions.values()) {
                    Cursor cursor = new Cursor(partition, fresh, partition.log.headSeq());
                    fresh.cursors.put(partition.name, cursor);
                    markMaybeReady(cursor);
                }
                deliverable.add(queue.name);
            }
            for (Partition partition : queue.partitions.values()) {
                compact(partition);
            }
        }
        boolean metadata = c.queue() == null && groupSubscriptions.remove(c.group()) != null;
        return new Result.GroupDeleted(c.group(), c.queue(), deleted, c.queue() == null || metadata);
    }

    private Result seek(Command.Seek c) {
        BrokerQueue queue = queues.get(c.queue());
        if (queue == null) {
            return new Rejected(Rejection.NOT_FOUND, "Queue '" + c.queue() + "' does not exist");
        }
        String groupName = c.group() == null || c.group().isEmpty() ? Group.QUEUE_MODE : c.group();
        Group group = groupFor(queue, groupName, SubscriptionMode.ALL, 0, lastNow);
        int updated = 0;
        for (Cursor cursor : group.cursors.values()) {
            dropClaim(cursor);
            MessageLog log = cursor.partition.log;
            cursor.moveTo(c.toEnd() ? log.tailSeq() : log.firstAppendedAfter(c.timestamp()));
            group.ready.remove(cursor);
            markMaybeReady(cursor);
            updated++;
        }
        for (Partition partition : queue.partitions.values()) {
            compact(partition);
        }
        deliverable.add(queue.name);
        return new Result.Sought(groupName, queue.name, c.toEnd(), c.timestamp(), updated);
    }

    private Result setSubscription(Command.SetSubscription c) {
        groupSubscriptions.put(c.group(), c.timestamp());
        int queuesUpdated = 0;
        for (BrokerQueue queue : queues.values()) {
            Group group = queue.groups.get(c.group());
            if (group != null) {
                group.subscribedAt = c.timestamp();
                queuesUpdated++;
            }
        }
        return new Result.SubscriptionSet(c.group(), c.timestamp(), queuesUpdated);
    }

    private Result setMaintenance(Command.SetMaintenance c, long now) {
        if (c.pop()) {
            popMaintenanceMode = c.enabled();
        } else {
            maintenanceMode = c.enabled();
            if (!c.enabled() && !buffered.isEmpty()) {
                List<PushItem> drained = new ArrayList<>(buffered);
                buffered.clear();
                for (int i = 0; i < drained.size(); i++) {
                    pushOne(i, drained.get(i), now);
                }
            }
        }
        if (!c.enabled()) {
            deliverable.addAll(queues.keySet());
        }
        return new Result.Maintenance(maintenanceMode, popMaintenanceMode, buffered.size());
    }

    // ---------------------------------------------------------------- tick: retention and eviction

    private Result tick(long now) {
        int removed = 0;
        for (BrokerQueue queue : queues.values()) {
            QueueOptions options = queue.options;
            boolean queueModeOnly = !queue.hasNamedGroups();
            boolean retention = options.retentionEnabled()
                    && (options.retentionSeconds() > 0 || options.completedRetentionSeconds() > 0);
            boolean completedOnly = queueModeOnly && options.completedRetentionSeconds() > 0;
            if (!retention && !completedOnly && options.maxWaitTimeSeconds() <= 0) {
                continue;
            }
            for (Partition partition : queue.partitions.values()) {
                removed += removeExpired(partition, now);
            }
        }
        return new Result.Ticked(expiredByTimers, releasedByTimers, removed);
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

    // ---------------------------------------------------------------- failed jobs

    private Result retryFailedJobs(Command.RetryFailedJobs c, long now) {
        int limit = Math.max(1, c.limit());
        List<String> missing = new ArrayList<>();
        int retried = 0;
        long remaining;
        FailedJobSelector selector = c.selector();
        if (selector instanceof FailedJobSelector.Ids ids) {
            {
                for (String uuid : ids.uuids()) {
                    FailedJob row = failedJobs.get(uuid);
                    if (row == null) {
                        missing.add(uuid);
                    } else {
                        retry(row, row.data(), now);
                        retried++;
                    }
                }
                remaining = 0;
            }
        } else if (selector instanceof FailedJobSelector.All) {
            {
                for (String uuid : failedJobs.select(null, null, 0, 0, limit)) {
                    retry(failedJobs.get(uuid), failedJobs.get(uuid).data(), now);
                    retried++;
                }
                remaining = failedJobs.size();
            }
        } else {
            FailedJobSelector.Filter filter = (FailedJobSelector.Filter) selector;
            {
                for (String uuid : failedJobs.select(filter.queue(), filter.text(), filter.from(), filter.to(), limit)) {
                    retry(failedJobs.get(uuid), failedJobs.get(uuid).data(), now);
                    retried++;
                }
                remaining = retried < limit ? 0
                        : failedJobs.count(filter.queue(), filter.text(), filter.from(), filter.to());
            }
        }
        return new Result.FailedJobsRetried(retried, missing, remaining);
    }

    private Result retryFailedJob(Command.RetryFailedJob c, long now) {
        FailedJob row = failedJobs.get(c.uuid());
        if (row == null) {
            return new Rejected(Rejection.NOT_FOUND, "Failed job " + c.uuid() + " not found");
        }
        retry(row, c.data() != null ? c.data() : row.data(), now);
        return new Result.FailedJobsRetried(1, List.of(), 0);
    }

    /** Pushes a failed job back to its queue and partition as a fresh delivery for its group. */
    private void retry(FailedJob row, String data, long now) {
        failedJobs.remove(row.uuid());
        BrokerQueue queue = queues.get(row.queue());
        if (queue == null) {
            queue = createQueue(row.queue(), null, null, QueueOptions.defaults());
        }
        Partition partition = partition(queue, row.partition());
        String onlyGroup = queue.groups.containsKey(row.consumerGroup()) ? row.consumerGroup() : null;
        append(partition, row.messageId(), row.transactionId(), row.traceId(), row.producerSub(), bodies.put(data),
                now, now, onlyGroup, 0, row.uuid());
    }

    private Result forgetFailedJob(String uuid) {
        if (failedJobs.remove(uuid) == null) {
            return new Rejected(Rejection.NOT_FOUND, "Failed job " + uuid + " not found");
        }
        return new Result.FailedJobsRemoved(1);
    }

    private Result removeFailedJobs(Command.RemoveFailedJobs c, long now) {
        long cutoff = c.hours() > 0 ? now - c.hours() * 3_600_000L : Long.MAX_VALUE;
        int limit = Math.max(1, c.limit());
        List<String> doomed = new ArrayList<>();
        boolean more = false;
        for (FailedJob row : failedJobs.oldestFirst(c.queue())) {
            boolean old = c.strictlyOlder() ? row.failedAt() < cutoff : row.failedAt() <= cutoff;
            if (!old) {
                break;
            }
            if (doomed.size() == limit) {
                more = true;
                break;
            }
            doomed.add(row.uuid());
        }
        doomed.forEach(failedJobs::remove);
        return new Result.FailedJobsRemoved(doomed.size(), more);
    }

    // ---------------------------------------------------------------- reads

    public FailedJobTable failedJobs() {
        return failedJobs;
    }

    public long lastAppliedTime() {
        return lastNow;
    }

    public boolean hasQueue(String queue) {
        return queues.containsKey(queue);
    }

    public List<String> queueNames() {
        return List.copyOf(queues.keySet());
    }

    public Views.Maintenance maintenance() {
        return new Views.Maintenance(maintenanceMode, popMaintenanceMode, buffered.size());
    }

    public long storedBytes() {
        return bodies.bytes();
    }

    public long storedMessages() {
        return bodies.count();
    }

    /**
     * A hint for long-polls: whether a pop by this group might deliver now. It may say yes when the
     * pop then finds nothing (the pop decides); it says no only when nothing can be delivered.
     */
    public boolean mayDeliver(String queueName, String partition, String group) {
        BrokerQueue queue = queues.get(queueName);
        if (queue == null || queue.paused || popMaintenanceMode) {
            return false;
        }
        Group existing = queue.groups.get(group == null || group.isEmpty() ? Group.QUEUE_MODE : group);
        if (existing == null) {
            for (Partition candidate : queue.partitions.values()) {
                if (!candidate.log.isEmpty()) {
                    return true;
                }
            }
            return false;
        }
        if (partition == null || partition.isEmpty() || "Default".equals(partition)) {
            return !existing.ready.isEmpty();
        }
        Cursor cursor = existing.cursors.get(partition);
        return cursor != null && cursor.claim == null && cursor.firstDeliverable() != null;
    }

    /**
     * How many wildcard pops of this group might find a partition now: the size of its ready set (an
     * upper bound), {@code Integer.MAX_VALUE} for a group that has not read the queue yet, 0 when the
     * queue delivers nothing. Long-polls wake this many waiters, not all of them.
     */
    public int readyPartitions(String queueName, String group) {
        BrokerQueue queue = queues.get(queueName);
        if (queue == null || queue.paused || popMaintenanceMode) {
            return 0;
        }
        Group existing = queue.groups.get(group == null || group.isEmpty() ? Group.QUEUE_MODE : group);
        return existing == null ? Integer.MAX_VALUE : existing.ready.size();
    }

    /** Size of a queue for one group (queue mode when null), the counts of B2. */
    public Views.Depth depth(String queueName, String group) {
        BrokerQueue queue = queues.get(queueName);
        if (queue == null) {
            return null;
        }
        return depth(queue, group == null ? Group.QUEUE_MODE : group);
    }

    private Views.Depth depth(BrokerQueue queue, String groupName) {
        Group group = queue.groups.get(groupName);
        long pending = 0;
        long reserved = 0;
        long oldest = 0;
        for (Partition partition : queue.partitions.values()) {
            Cursor cursor = group == null ? null : group.cursors.get(partition.name);
            long start = cursor == null ? partition.log.headSeq() : cursor.next;
            long unconsumed = partition.log.tailSeq() - start - (cursor == null ? 0 : cursor.doneAhead.size());
            long leased = 0;
            if (cursor != null && cursor.claim != null) {
                leased = cursor.claim.seqs.size() - cursor.claim.resolved.size();
            }
            reserved += leased;
            pending += Math.max(0, unconsumed - leased);
            Message first = cursor == null ? partition.log.head() : cursor.firstDeliverable();
            if (first != null && (oldest == 0 || first.createdAt < oldest)) {
                oldest = first.createdAt;
            }
        }
        long delayed = 0;
        for (DelayedMessage waiting : queue.delayed.values()) {
            if (waiting.onlyGroup == null || waiting.onlyGroup.equals(groupName)) {
                delayed++;
            }
        }
        return new Views.Depth(pending, reserved, delayed, oldest);
    }

    public List<Views.QueueSummary> queues() {
        List<Views.QueueSummary> summaries = new ArrayList<>(queues.size());
        for (BrokerQueue queue : queues.values()) {
            summaries.add(summary(queue));
        }
        return summaries;
    }

    public Views.QueueSummary queue(String name) {
        BrokerQueue queue = queues.get(name);
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
                failedJobs.size(queue.name), groups);
    }

    /** One page of a queue's partitions with every group's position in each. */
    public List<Views.PartitionView> partitions(String queueName, int offset, int limit) {
        BrokerQueue queue = queues.get(queueName);
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
                        Math.max(0, partition.log.tailSeq() - cursor.next - cursor.doneAhead.size()),
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

    public List<Views.GroupSummary> groups() {
        List<Views.GroupSummary> summaries = new ArrayList<>();
        for (BrokerQueue queue : queues.values()) {
            for (Group group : queue.groups.values()) {
                long lag = 0;
                int leased = 0;
                for (Cursor cursor : group.cursors.values()) {
                    lag += Math.max(0, cursor.partition.log.tailSeq() - cursor.next - cursor.doneAhead.size());
                    if (cursor.claim != null) {
                        leased++;
                    }
                }
                summaries.add(new Views.GroupSummary(group.name, queue.name, group.cursors.size(), lag, leased,
                        group.subscribedAt));
            }
        }
        return summaries;
    }

    /** Stored messages whose id or transactionId is {@code key}, newest entries last. */
    public List<Views.MessageView> findMessages(String key, int limit) {
        List<Views.MessageView> found = new ArrayList<>();
        for (BrokerQueue queue : queues.values()) {
            for (Partition partition : queue.partitions.values()) {
                Message byTransaction = partition.byTransactionId.get(key);
                if (byTransaction != null) {
                    found.add(view(partition, byTransaction));
                } else if (key.length() == 36) {
                    for (Message message : partition.log.entries()) {
                        if (key.equals(message.id)) {
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

    /** The newest {@code limit} stored messages of a queue's partition, from {@code fromSeq} on. */
    public List<Views.MessageView> browse(String queueName, String partitionName, long fromSeq, int limit) {
        BrokerQueue queue = queues.get(queueName);
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
        return new Views.MessageView(message.id, message.transactionId, message.traceId, partition.queue.name,
                partition.name, partition.id, bodies.get(message.bodyRef), message.producerSub, message.createdAt,
                message.seq, status);
    }

    public List<Trace> traces(String transactionId, int limit) {
        List<Trace> found = new ArrayList<>();
        Iterator<Trace> newestFirst = traces.descendingIterator();
        while (newestFirst.hasNext() && found.size() < limit) {
            Trace trace = newestFirst.next();
            if (transactionId == null || transactionId.equals(trace.transactionId())) {
                found.add(trace);
            }
        }
        return found;
    }

    public int leaseCount() {
        return leases.size();
    }

    /**
     * When the earliest lease expiry, delayed message or re-check is due (epoch ms), or
     * {@code Long.MAX_VALUE}: the leader ticks then, so timers fire on time on an idle broker.
     */
    public long nextTimerDue() {
        return timers.nextDue();
    }

    public int timerCount() {
        return timers.size();
    }

    // ---------------------------------------------------------------- snapshot

    public void writeTo(StateWriter out) {
        StateImage.write(this, out);
    }

    public static BrokerState readFrom(StateReader in) {
        return StateImage.read(in);
    }
}
