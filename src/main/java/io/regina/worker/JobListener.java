package io.regina.worker;

/**
 * Laravel's job events, on the worker's thread: {@link #before} a job runs, {@link #after} it ran with the
 * verdict it got, {@link #failing} when that verdict fails it for good (also for a delivery refused before
 * running: too many attempts, past retryUntil, unknown kind). A listener that throws is logged and ignored.
 */
public interface JobListener {

    default void before(JobEvent job) {
    }

    default void after(JobEvent job, Verdict verdict) {
    }

    default void failing(JobEvent job, String reason, Throwable cause) {
    }
}
