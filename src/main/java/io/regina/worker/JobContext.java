package io.regina.worker;

import io.regina.client.Message;

import java.time.Duration;
import java.util.function.BooleanSupplier;

/**
 * What a running job knows of its delivery and may decide about it: {@link #release} puts it back for a later
 * attempt (counted), {@link #fail} fails it for good with a reason. Either takes effect when the handler
 * returns (or throws), and the last call wins.
 */
public final class JobContext {
    private final String kind;
    private final Message message;
    private final BooleanSupplier stopping;
    private volatile Outcome requested;

    JobContext(String kind, Message message, BooleanSupplier stopping) {
        this.kind = kind;
        this.message = message;
        this.stopping = stopping;
    }

    public String kind() {
        return kind;
    }

    /** The delivery: its ids, its lease, its raw payload. */
    public Message message() {
        return message;
    }

    /** 1 on the first attempt. */
    public int attempt() {
        return message.attempts();
    }

    /** True once the worker is stopping: a long job may save its progress and release itself. */
    public boolean stopping() {
        return stopping.getAsBoolean();
    }

    /** Back to the queue after {@code delay}, this attempt counted (Laravel's {@code release}). */
    public void release(Duration delay) {
        requested = new Outcome.Released(delay);
    }

    /** Fails the job for good, without a retry: one failed-jobs row with {@code reason}. */
    public void fail(String reason) {
        requested = new Outcome.FailedByJob(reason);
    }

    Outcome requested() {
        return requested;
    }
}
