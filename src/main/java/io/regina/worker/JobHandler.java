package io.regina.worker;

/**
 * The code of one job kind. {@code payload} is the dispatched data bound to {@code T} by Jackson (a record,
 * usually). Returning completes the job; throwing is a failed attempt, retried as the kind's
 * {@link JobOptions} say; {@link JobContext#release} and {@link JobContext#fail} end it otherwise.
 */
@FunctionalInterface
public interface JobHandler<T> {
    void handle(T payload, JobContext job) throws Exception;
}
