package io.regina.queue;

import java.util.Collection;
import java.util.List;

/**
 * What a query sees of the broker: read-only pictures of the applied state, never the state itself
 * (which has {@code apply}). {@link CommandBus#read} hands one view to a query under the state's read
 * lock, so everything a query reads from it is one consistent moment: build a page from one read.
 * Answers are copies or immutable, except {@link #failedJobs()}, which is only valid inside the query.
 */
public interface BrokerView {

    /** The failed-jobs table, read-only; search its text with {@link FailedJobSearch}. */
    FailedJobs failedJobs();

    /** The time of the newest applied command (the state's monotonic clock). */
    long lastAppliedTime();

    boolean hasQueue(String queue);

    List<String> queueNames();

    Views.Maintenance maintenance();

    /** The nodes whose disk alarm is up, by the state's clock (see {@link DiskAlarms}). */
    List<String> diskAlarms();

    long storedBytes();

    long storedMessages();

    /**
     * A hint for long-polls: whether a pop by this group might deliver now. It may say yes when the
     * pop then finds nothing (the pop decides); it says no only when nothing can be delivered. It says
     * yes for a group that has not read the queue yet: that pop registers where the group starts.
     */
    boolean mayDeliver(String queue, String partition, String group);

    /**
     * {@link #mayDeliver}, or whether one of the partitions {@code settledPartitionIds} (their ids), once the
     * group's claim on it is settled, has a message that pop would take: the hint for a pop made in the same
     * entry as the ack that settles that claim. It may say yes when the pop then finds nothing.
     */
    boolean mayDeliverOnceSettled(String queue, String partition, String group, Collection<String> settledPartitionIds);

    /**
     * Exactly whether a pop by this group would find a message now in one of {@code partitions} (every
     * partition when empty): a partition no lease of the group holds with a message it has not consumed.
     * Unlike {@link #mayDeliver} it never says yes on a hint, so a watch that trusts it does not spin; it
     * does not look at {@code delayedProcessing} or {@code windowBuffer}. A group that has not read the
     * queue yet would find any stored message.
     */
    boolean hasDeliverable(String queue, String group, List<String> partitions);

    /**
     * How many wildcard pops of this group might find a partition now: the size of its ready set (an
     * upper bound), {@code Integer.MAX_VALUE} for a group that has not read the queue yet, 0 when the
     * queue delivers nothing. Long-polls wake this many waiters, not all of them.
     */
    int readyPartitions(String queue, String group);

    /** Size of a queue for one group (queue mode when null), or null when there is no such queue. */
    Views.Depth depth(String queue, String group);

    /**
     * When the oldest message pending in queue mode was created, or 0 when none is (or no such queue). It
     * walks the queue's partitions, unlike {@link #depth}, so only the queue size endpoint asks it.
     */
    long oldestPendingCreatedAt(String queue);

    List<Views.QueueSummary> queues();

    /** One queue's summary, or null when there is no such queue. */
    Views.QueueSummary queue(String name);

    /** One page of a queue's partitions with every group's position in each. */
    List<Views.PartitionView> partitions(String queue, int offset, int limit);

    List<Views.GroupSummary> groups();

    /** Stored messages whose id or transactionId is {@code key}, newest entries last. */
    List<Views.MessageView> findMessages(String key, int limit);

    /** The oldest {@code limit} stored messages of a queue's partition from {@code fromSeq} on. */
    List<Views.MessageView> browse(String queue, String partition, long fromSeq, int limit);

    /** The newest {@code limit} trace events, of one transaction unless {@code transactionId} is null. */
    List<BrokerState.Trace> traces(String transactionId, int limit);

    int leaseCount();

    /** When the earliest timer is due (epoch ms), or {@code Long.MAX_VALUE}. */
    long nextTimerDue();

    int timerCount();
}
