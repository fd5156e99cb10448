package io.regina.queue;

import java.util.HashMap;
import java.util.Map;

/** An ordered log inside a queue, with its dedup index (transactionId of every stored or delayed message). */
final class Partition {
    final BrokerQueue queue;
    final String name;
    final String id;
    final MessageLog log;
    /** The newest stored entry per transactionId, for acks and dedup. */
    final TransactionIndex transactions = new TransactionIndex();
    /** transactionId to message id of messages waiting for their delay, for dedup; null while none waits. */
    private Map<String, String> delayedTransactionIds;

    Partition(BrokerQueue queue, String name, long firstSeq) {
        this.queue = queue;
        this.name = name;
        this.id = Ids.named("partition", queue.name, name);
        this.log = new MessageLog(firstSeq);
    }

    /** A stripe of its queue, named by the broker ({@code stripe-N}), whoever pushed into it. */
    boolean isStripe() {
        return name.startsWith(Pushes.STRIPE_PREFIX);
    }

    /** The id of the stored or delayed message holding this transactionId, or null. */
    String duplicateOf(String transactionId) {
        Message stored = transactions.get(transactionId);
        if (stored != null) {
            return stored.id();
        }
        return delayedTransactionIds == null ? null : delayedTransactionIds.get(transactionId);
    }

    int delayedCount() {
        return delayedTransactionIds == null ? 0 : delayedTransactionIds.size();
    }

    boolean holdsDelayed(String transactionId) {
        return delayedTransactionIds != null && delayedTransactionIds.containsKey(transactionId);
    }

    /** The message {@code id} waits for its delay here under this transactionId. */
    void holdDelayed(String transactionId, String id) {
        if (delayedTransactionIds == null) {
            delayedTransactionIds = new HashMap<>();
        }
        delayedTransactionIds.put(transactionId, id);
    }

    /** The message waiting under this transactionId left (only when it is {@code id}, if one is given). */
    void releaseDelayed(String transactionId, String id) {
        if (delayedTransactionIds == null) {
            return;
        }
        if (id == null) {
            delayedTransactionIds.remove(transactionId);
        } else {
            delayedTransactionIds.remove(transactionId, id);
        }
        if (delayedTransactionIds.isEmpty()) {
            delayedTransactionIds = null;
        }
    }
}
