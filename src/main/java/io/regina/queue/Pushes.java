package io.regina.queue;

import io.regina.queue.Command.PushItem;
import io.regina.queue.Result.PushOutcome;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Decides pushes: buffering under push maintenance, the queues' capacity (maxSize), the stripe a
 * message lands on, dedup by transactionId, and whether it is appended now or waits for its delay.
 * {@link #append} and {@link #delay} are also how released and retried jobs re-enter their partition.
 */
final class Pushes {

    private final BrokerState state;

    Pushes(BrokerState state) {
        this.state = state;
    }

    Result push(List<PushItem> items, long now) {
        if (state.maintenanceMode) {
            List<PushOutcome> outcomes = new ArrayList<>(items.size());
            for (int i = 0; i < items.size(); i++) {
                state.buffered.add(items.get(i));
                outcomes.add(PushOutcome.buffered(i, items.get(i)));
            }
            return new Result.Pushed(outcomes);
        }
        Result.Rejected full = checkCapacity(items);
        if (full != null) {
            return full;
        }
        List<PushOutcome> outcomes = new ArrayList<>(items.size());
        for (int i = 0; i < items.size(); i++) {
            outcomes.add(pushOne(i, items.get(i), now));
        }
        return new Result.Pushed(outcomes);
    }

    /** The refusal when these items would take a queue over its maxSize, else null. */
    Result.Rejected checkCapacity(List<PushItem> items) {
        Map<String, Long> incoming = new HashMap<>();
        for (PushItem item : items) {
            incoming.merge(item.queue(), 1L, Long::sum);
        }
        for (Map.Entry<String, Long> entry : incoming.entrySet()) {
            BrokerQueue queue = state.queues.get(entry.getKey());
            if (queue != null && queue.options.maxSize() > 0
                    && queue.storedMessages + entry.getValue() > queue.options.maxSize()) {
                return Rejection.QUEUE_FULL.reject(queue.name, queue.storedMessages, queue.options.maxSize());
            }
        }
        return null;
    }

    PushOutcome pushOne(int index, PushItem item, long now) {
        BrokerQueue queue = state.queueOrCreate(item.queue());
        Partition holder = duplicateHolder(queue, item);
        if (holder != null) {
            return PushOutcome.duplicate(index, item.transactionId(), holder.duplicateOf(item.transactionId()),
                    holder.id, queue.name);
        }
        Partition partition = placement(queue, item);
        long bodyRef = state.bodies.put(item.payload());
        long dueAt = Math.max(item.availableAt(), item.delayMs() > 0 ? now + item.delayMs() : 0);
        if (dueAt > now) {
            delay(partition, item.messageId(), item.transactionId(), item.traceId(), item.producerSub(), bodyRef,
                    now, dueAt, null, 0, null);
        } else {
            append(partition, item.messageId(), item.transactionId(), item.traceId(), item.producerSub(), bodyRef,
                    now, now, null, 0, null);
        }
        return PushOutcome.queued(index, item, partition.id, queue.name);
    }

    static final String STRIPE_PREFIX = "stripe-";
    private static final String[] STRIPE_NAMES = new String[QueueOptions.MAX_STRIPES];
    /** How many stripes, from the item's home stripe on, a push looks at for the least loaded one. */
    private static final int STRIPES_LOOKED_AT = 64;

    static {
        for (int i = 0; i < STRIPE_NAMES.length; i++) {
            STRIPE_NAMES[i] = STRIPE_PREFIX + i;
        }
    }

    /** Whether the broker chooses the item's stripe: a striped queue ({@code queue} null: not yet) and no partition named. */
    static boolean isStriped(BrokerQueue queue, PushItem item) {
        return queue != null && queue.options.stripes() > 1 && (item.partition() == null || item.partition().isEmpty());
    }

    /**
     * The partition already holding the item's transactionId where dedup looks (the partition it names or
     * Default; in a striped queue, every stripe), or null.
     */
    static Partition duplicateHolder(BrokerQueue queue, PushItem item) {
        if (queue == null) {
            return null;
        }
        if (!isStriped(queue, item)) {
            Partition partition = queue.partitions.get(namedOrDefault(item));
            return partition != null && partition.duplicateOf(item.transactionId()) != null ? partition : null;
        }
        Message stored = queue.stripeTransactions.get(item.transactionId());
        if (stored != null) {
            return stored.partition;
        }
        Partition delayedIn = queue.delayedStripeOfTransaction.get(item.transactionId());
        return delayedIn != null && delayedIn.duplicateOf(item.transactionId()) != null ? delayedIn : null;
    }

    /** The scope a transactionId is unique in: the named partition or Default, or (empty) the stripes. */
    static String dedupScope(BrokerQueue queue, PushItem item) {
        return isStriped(queue, item) ? "" : namedOrDefault(item);
    }

    private static String namedOrDefault(PushItem item) {
        return item.partition() != null && !item.partition().isEmpty() ? item.partition() : "Default";
    }

    /**
     * Where a new item goes: the partition it names, Default, or in a striped queue the stripe holding the
     * fewest messages, an idle one first. A job queue's stripes are its workers' lanes: a job on a stripe
     * whose one message is being worked on waits for that job (a stripe is leased whole), while another
     * worker sits idle. The look starts at the item's home stripe (its transactionId's hash), so equally
     * loaded stripes fill evenly, and stops at the first empty one.
     */
    private Partition placement(BrokerQueue queue, PushItem item) {
        if (!isStriped(queue, item)) {
            return state.partition(queue, namedOrDefault(item));
        }
        int stripes = queue.options.stripes();
        int home = stripeOf(item.transactionId(), stripes);
        String best = null;
        int fewest = Integer.MAX_VALUE;
        for (int i = 0; i < Math.min(stripes, STRIPES_LOOKED_AT); i++) {
            String name = STRIPE_NAMES[(home + i) % stripes];
            Partition stripe = queue.partitions.get(name);
            int stored = stripe == null ? 0 : stripe.log.size() + stripe.delayedCount();
            if (stored < fewest) {
                best = name;
                fewest = stored;
                if (stored == 0) {
                    break;
                }
            }
        }
        return state.partition(queue, best);
    }

    /**
     * An item's home stripe, where the look for the least loaded stripe starts; ids are random or
     * distinct enough that the mixed hash spreads them evenly.
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

    /** Appends an entry at the tail of its partition; it is pending for every group that sees it. */
    void append(Partition partition, String id, String transactionId, String traceId, String producerSub,
                long bodyRef, long createdAt, long now, String onlyGroup, int baseAttempts, String retryOf) {
        Message message = new Message(partition.log.takeSeq(), partition, id, transactionId, traceId, producerSub,
                bodyRef, createdAt, now, onlyGroup, baseAttempts, retryOf);
        partition.log.append(message);
        partition.transactions.put(message);
        if (partition.isStripe()) {
            partition.queue.stripeTransactions.put(message);
        }
        partition.queue.storedMessages++;
        for (Group group : partition.queue.groups.values()) {
            Cursor cursor = group.cursors.get(partition.name);
            cursor.recount();
            if (message.visibleTo(group.name)) {
                cursor.markMaybeReady();
            }
        }
        state.deliverable.add(partition.queue.name);
    }

    /** Holds a message back until {@code dueAt}, when a timer appends it. */
    void delay(Partition partition, String id, String transactionId, String traceId, String producerSub,
               long bodyRef, long createdAt, long dueAt, String onlyGroup, int baseAttempts, String retryOf) {
        DelayedMessage waiting = new DelayedMessage(state.nextPendingSeq++, partition, id, transactionId, traceId,
                producerSub, bodyRef, createdAt, dueAt, onlyGroup, baseAttempts, retryOf);
        partition.queue.delayed.put(waiting);
        partition.queue.storedMessages++;
        // A released copy is still stored, so it keeps its transactionId taken too.
        partition.holdDelayed(transactionId, id);
        if (partition.isStripe()) {
            partition.queue.delayedStripeOfTransaction.put(transactionId, partition);
        }
        state.timers.schedule(dueAt, Timers.Kind.DELAYED, "", waiting.pendingSeq, waiting);
    }
}
