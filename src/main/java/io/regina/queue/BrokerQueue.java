package io.regina.queue;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;

/** A queue: its options, partitions (stripes), consumer groups and delayed messages. */
final class BrokerQueue {
    final String name;
    final String id;
    String namespace;
    String task;
    QueueOptions options;
    boolean paused;
    final Map<String, Partition> partitions = new LinkedHashMap<>();
    final Map<String, Group> groups = new LinkedHashMap<>();
    final DelayedMessages delayed = new DelayedMessages();
    /** Messages stored in the partitions plus those waiting for their delay; maxSize counts these. */
    long storedMessages;
    /**
     * The newest entry stored in a stripe ({@code stripe-N}) per transactionId, and the stripe holding each
     * transactionId waiting for its delay in one, so a push that names no partition is deduplicated across the
     * stripes wherever its first copy went. A delayed entry may outlive its message (checked on use).
     */
    final TransactionIndex stripeTransactions = new TransactionIndex();
    final Map<String, Partition> delayedStripeOfTransaction = new HashMap<>();

    BrokerQueue(String name, String namespace, String task, QueueOptions options) {
        this.name = name;
        this.id = Ids.named("queue", name);
        this.namespace = namespace;
        this.task = task;
        this.options = options;
    }

    Group queueMode() {
        return groups.get(Group.QUEUE_MODE);
    }

    boolean hasNamedGroups() {
        return groups.size() > 1 || (groups.size() == 1 && queueMode() == null);
    }

    static String defaultNamespace(String queue) {
        int dot = queue.indexOf('.');
        return dot < 0 ? null : queue.substring(0, dot);
    }

    static String defaultTask(String queue) {
        int dot = queue.indexOf('.');
        if (dot < 0) {
            return null;
        }
        int next = queue.indexOf('.', dot + 1);
        return next < 0 ? queue.substring(dot + 1) : queue.substring(dot + 1, next);
    }
}
