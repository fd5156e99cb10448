package io.regina.queue;

import java.util.EnumSet;
import java.util.Set;

/**
 * The states of one message for one consumer group, and the only moves between them (Kafka's
 * share-group record states and JobRunr's job-state table are the models). The state is not stored:
 * it is what the group's {@link Cursor}, its {@link Claim}, the queue's delayed messages and the
 * failed-job table say. Every place that changes one of those for a message calls
 * {@link #transition(MessageState, MessageState)} first, so a move the table does not list is a bug
 * that fails loudly (the simulation test runs into it) instead of corrupting a cursor.
 *
 * <p>A message is born {@code PENDING} or {@code DELAYED} (a push, a delayed push). Deleting a queue or
 * a group ends the life of its messages for it at once, and a recreated group starts afresh: neither is
 * a move of one message.
 *
 * <pre>
 * from       to         when
 * ---------  ---------  ---------------------------------------------------------------------
 * PENDING    LEASED     a pop claims it under a lease
 * PENDING    CONSUMED   an auto-ack pop, an ack without a lease, a clear, a seek past it
 * PENDING    FAILED     a dead-letter ack without a lease
 * PENDING    DELAYED    a release with a delay, without a lease
 * PENDING    PENDING    a release without a delay or a lease: it re-enters at the tail
 * PENDING    FORGOTTEN  retention or maxWaitTime evicts it unconsumed
 * DELAYED    PENDING    its delay is over: it is appended to its partition
 * DELAYED    FORGOTTEN  a clear removes it
 * LEASED     CONSUMED   acked completed
 * LEASED     PENDING    a hand-back (failed within retryLimit, retry), lease expiry, a seek or
 *                       group deletion dropping the lease, a release without a delay
 * LEASED     DELAYED    a release with a delay, a failure with a broker-side backoff
 * LEASED     FAILED     dead-lettered, or failed with its retries exhausted
 * CONSUMED   PENDING    a seek back before it
 * FAILED     PENDING    a failed-job retry
 * FAILED     FORGOTTEN  the failed-job row is forgotten or removed
 * FORGOTTEN  (none)
 * </pre>
 */
public enum MessageState {
    PENDING,
    DELAYED,
    LEASED,
    CONSUMED,
    FAILED,
    FORGOTTEN;

    private Set<MessageState> next;

    static {
        PENDING.next = EnumSet.of(LEASED, CONSUMED, FAILED, DELAYED, PENDING, FORGOTTEN);
        DELAYED.next = EnumSet.of(PENDING, FORGOTTEN);
        LEASED.next = EnumSet.of(CONSUMED, PENDING, DELAYED, FAILED);
        CONSUMED.next = EnumSet.of(PENDING);
        FAILED.next = EnumSet.of(PENDING, FORGOTTEN);
        FORGOTTEN.next = EnumSet.noneOf(MessageState.class);
    }

    /** Whether the table lists the move from this state to {@code to}. */
    public boolean allows(MessageState to) {
        return next.contains(to);
    }

    /**
     * Checks one move against the table.
     *
     * @return {@code to}, the state the message is in now
     * @throws IllegalStateException naming the move when the table does not list it
     */
    public static MessageState transition(MessageState from, MessageState to) {
        if (!from.allows(to)) {
            throw new IllegalStateException("refused message state move " + from + " -> " + to);
        }
        return to;
    }
}
