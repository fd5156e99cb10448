package io.regina.worker;

import java.time.Duration;

/**
 * A hook for metrics (Micrometer, or anything), called on the worker's threads; every method is a no-op
 * unless overridden. {@code verdict} says how the job ended: complete, retry, release, fail.
 */
public interface WorkerMetrics {

    default void jobFinished(String kind, Verdict verdict, Duration took) {
    }

    default void leaseRenewed(boolean success) {
    }

    /** Jobs given back without their attempt counted, at a stop. */
    default void handedBack(int jobs) {
    }
}
