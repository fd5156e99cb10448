package io.regina.queue;

/** Where a named consumer group starts reading a queue on its first pop. */
public enum SubscriptionMode {
    /** From the beginning of every partition. */
    ALL,
    /** Only messages appended after the group's first pop on the queue. */
    NEW,
    /** Only messages appended after an explicit time. */
    FROM
}
