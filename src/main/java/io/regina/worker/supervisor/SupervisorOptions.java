package io.regina.worker.supervisor;

import io.regina.worker.JobOptions;

import java.time.Duration;
import java.util.List;

/**
 * What {@code queue:work} was told: the broker, the queue, how many workers, and the options each worker JVM
 * gets. It runs from {@code minWorkers} to {@code maxWorkers} workers; equal, that is a fixed size and the
 * supervisor neither watches the queue nor joins the {@link SupervisorRegistry}. {@code coolDown} is how
 * long the demand must stay lower before an autoscaling supervisor lets workers go ({@link ScalePolicy}).
 * Durations are whole seconds on the command line. {@code memoryMb} is the resident size past which a worker
 * is recycled after its job; {@code workerJavaOptions} go to each worker's {@code java} before its main class.
 * {@code poll} is how long an idle worker's pop waits for work: a stop waits for it too.
 */
public record SupervisorOptions(String url, String token, String queue, String group, int minWorkers, int maxWorkers,
                                Duration coolDown, int prefetch, Duration timeout, int tries, List<Long> backoffSeconds,
                                int leaseSeconds, long memoryMb, Duration shutdownGrace, String classpath, String job,
                                boolean asyncAcks, boolean popAhead, Duration poll, List<String> workerJavaOptions) {

    public SupervisorOptions {
        backoffSeconds = List.copyOf(backoffSeconds);
        workerJavaOptions = List.copyOf(workerJavaOptions);
        if (minWorkers < 0 || maxWorkers < 1 || maxWorkers < minWorkers) {
            throw new IllegalArgumentException("--min must be 0 or more, --max (or --workers) at least 1 and at least"
                    + " --min; got --min " + minWorkers + " --max " + maxWorkers);
        }
        if (coolDown.isNegative()) {
            throw new IllegalArgumentException("--cooldown must be 0 s or more");
        }
        if (prefetch < 1 || tries < 1 || leaseSeconds < 1 || memoryMb < 1) {
            throw new IllegalArgumentException("--prefetch, --tries, --lease and --memory must be at least 1");
        }
        if (timeout.isNegative() || timeout.isZero() || poll.isNegative() || poll.isZero() || shutdownGrace.isNegative()) {
            throw new IllegalArgumentException("--timeout and --poll must be at least 1 s, --shutdown-grace 0 s or more");
        }
        if (backoffSeconds.stream().anyMatch(s -> s < 0)) {
            throw new IllegalArgumentException("--backoff must be 0 or more seconds");
        }
    }

    /** Whether the number of workers follows the queue's depth (else it is {@code minWorkers}, always). */
    boolean autoscales() {
        return minWorkers < maxWorkers;
    }

    /** The wait before the attempt after {@code attempt}, as the worker's own {@code --backoff} reads it. */
    Duration backoffAfter(int attempt) {
        return JobOptions.defaults().backoff(backoffSeconds.stream().mapToLong(Long::longValue).toArray())
                .backoffAfter(Math.max(attempt, 1));
    }
}
