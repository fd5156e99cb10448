package io.regina.queue;

import java.util.Locale;

/**
 * The catalogue of business outcomes that refuse a request (NATS' {@code errors.json} is the model):
 * each has a stable code, the HTTP status it maps to and a message template. Apply returns them as
 * {@link Result.Rejected} outcomes, or as the error text of a per-item outcome, rather than throwing;
 * no call site writes a refusal's text itself.
 *
 * <p>The code is what the {@code raft} codec writes, so codes are never reused or renumbered and new
 * entries take the next one. The first six are the generic entries of the first log format; they stay
 * for entries already written and for refusals outside the domain, while the domain uses the specific
 * ones. A per-item outcome (one ack of a batch, one lease extension) travels inside a 200 answer: there
 * the status says what the refusal would be on its own.
 */
public enum Rejection {
    INVALID_REQUEST(1, 400, "%s"),
    NOT_FOUND(2, 404, "%s"),
    QUEUE_FULL(3, 429, "Queue '%s' is full: it holds %d of maxSize %d messages; consume some or raise maxSize"),
    MEMORY_FULL(4, 429, "The broker's memory is full (%d MiB live of %d MiB): consume messages before pushing more"),
    CONFLICT(5, 409, "%s"),
    TOO_LARGE(6, 413, "The request is %d bytes once encoded, over the limit of %d bytes per request: "
            + "split it into smaller requests"),
    QUEUE_NOT_FOUND(7, 404, "Queue '%s' does not exist"),
    FAILED_JOB_NOT_FOUND(8, 404, "Failed job %s not found"),
    MESSAGE_NOT_FOUND(9, 404, "Message not found"),
    LEASE_NOT_FOUND(10, 404, "Lease not found"),
    LEASE_EXPIRED(11, 409, "Lease already expired"),
    LEASE_NOT_ACTIVE(12, 409, "Lease not active"),
    /** An ack naming a lease that does not hold the message, or has expired. */
    LEASE_INVALID(13, 409, "Invalid or expired lease"),
    REQUIRED_LEASE_INACTIVE(14, 409, "Required lease %s is not active"),
    DUPLICATE_TRANSACTION(15, 409, "Duplicate transactionId %s in queue %s"),
    /** A transaction refused because one of its acks would be: the ack's refusal and its transactionId. */
    TRANSACTION_ACK_REFUSED(16, 409, "%s (transactionId %s)"),
    /** Apply threw: a bug in the domain, answered as a refusal so the node keeps running. */
    APPLY_FAILED(17, 400, "internal error applying %s: %s"),
    /** A fenced ack naming a lease that no longer holds the message: the whole request is refused. */
    LEASE_NOT_HELD(18, 409, "Lease %s no longer holds transactionId %s (it expired, or the partition was "
            + "leased again): nothing in this request was applied; pop again for a new lease");

    private final int code;
    private final int httpStatus;
    private final String template;

    Rejection(int code, int httpStatus, String template) {
        this.code = code;
        this.httpStatus = httpStatus;
        this.template = template;
    }

    public int code() {
        return code;
    }

    public int httpStatus() {
        return httpStatus;
    }

    public String template() {
        return template;
    }

    /** The message with the template's placeholders filled in, in order. */
    public String message(Object... args) {
        return args.length == 0 ? template : String.format(Locale.ROOT, template, args);
    }

    /** The refusal as a command's whole result. */
    public Result.Rejected reject(Object... args) {
        return new Result.Rejected(this, message(args));
    }

    public static Rejection ofCode(int code) {
        for (Rejection rejection : values()) {
            if (rejection.code == code) {
                return rejection;
            }
        }
        throw new IllegalArgumentException("unknown rejection code " + code);
    }
}
