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
        Partition partition = state.partition(queue, partitionNameFor(queue, item));
        String original = partition.duplicateOf(item.transactionId());
        if (original != null) {
            return PushOutcome.duplicate(index, item.transactionId(), original, partition.id, queue.name);
        }
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

    /** The partition an item goes to; {@code queue} null (not created yet) has one stripe. */
    static String partitionNameFor(BrokerQueue queue, PushItem item) {
        if (item.partition() != null && !item.partition().isEmpty()) {
            return item.partition();
        }
        int stripes = queue == null ? 1 : queue.options.stripes();
        return stripes <= 1 ? "Default" : "stripe-" + stripeOf(item.transactionId(), stripes);
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

    /** Appends an entry at the tail of its partition; it is pending for every group that sees it. */
    void append(Partition partition, String id, String transactionId, String traceId, String producerSub,
                long bodyRef, long createdAt, long now, String onlyGroup, int baseAttempts, String retryOf) {
        Message message = new Message(partition.log.takeSeq(), id, transactionId, traceId, producerSub, bodyRef,
                createdAt, now, onlyGroup, baseAttempts, retryOf);
        partition.log.append(message);
        partition.byTransactionId.put(transactionId, message);
        partition.queue.storedMessages++;
        for (Group group : partition.queue.groups.values()) {
            if (message.visibleTo(group.name)) {
                group.cursors.get(partition.name).markMaybeReady();
            }
        }
        state.deliverable.add(partition.queue.name);
    }

    /** Holds a message back until {@code dueAt}, when a timer appends it. */
    void delay(Partition partition, String id, String transactionId, String traceId, String producerSub,
               long bodyRef, long createdAt, long dueAt, String onlyGroup, int baseAttempts, String retryOf) {
        DelayedMessage waiting = new DelayedMessage(state.nextPendingSeq++, partition, id, transactionId, traceId,
                producerSub, bodyRef, createdAt, dueAt, onlyGroup, baseAttempts, retryOf);
        partition.queue.delayed.put(waiting.pendingSeq, waiting);
        partition.queue.storedMessages++;
        // A released copy is still stored, so it keeps its transactionId taken too.
        partition.delayedTransactionIds.put(transactionId, id);
        state.timers.schedule(dueAt, Timers.Kind.DELAYED, "", waiting.pendingSeq, waiting);
    }
}
