package io.regina.client;

import com.fasterxml.jackson.annotation.JsonInclude;

import java.time.Duration;

/**
 * One acknowledgement. Made from the {@link Message} it settles, it carries the message's {@code leaseId},
 * so the broker refuses it when that lease no longer holds the message (lease fencing): a late ack never
 * settles another worker's delivery.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record Ack(String transactionId, String partitionId, AckStatus status, String error, String consumerGroup,
                  String leaseId, Long delayMs, Long retryAfterMs) {

    public static Ack completed(Message m) {
        return of(m, AckStatus.COMPLETED, null, null, null);
    }

    /** Charged: the broker's own retry ({@code retryLimit}, the whole batch again) or failed for good. */
    public static Ack failed(Message m, String error) {
        return of(m, AckStatus.FAILED, error, null, null);
    }

    /** Charged, with {@code error} recorded: this message alone comes back after {@code after}. */
    public static Ack failed(Message m, String error, Duration after) {
        return of(m, AckStatus.FAILED, error, null, after.toMillis());
    }

    /** An uncharged hand-back: the delivery does not count as an attempt. */
    public static Ack retry(Message m) {
        return of(m, AckStatus.RETRY, null, null, null);
    }

    /** Back to the queue after {@code delay}, the attempt counted (Laravel's {@code release}). */
    public static Ack release(Message m, Duration delay) {
        return of(m, AckStatus.RELEASE, null, delay.toMillis(), null);
    }

    /** Straight to the failed jobs with {@code error}. */
    public static Ack dlq(Message m, String error) {
        return of(m, AckStatus.DLQ, error, null, null);
    }

    private static Ack of(Message m, AckStatus status, String error, Long delayMs, Long retryAfterMs) {
        return new Ack(m.transactionId(), m.partitionId(), status, error, m.consumerGroup(), m.leaseId(), delayMs,
                retryAfterMs);
    }
}
