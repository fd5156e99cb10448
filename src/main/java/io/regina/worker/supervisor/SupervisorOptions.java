package io.regina.worker.supervisor;

import io.regina.worker.JobOptions;

import java.time.Duration;
import java.util.List;

/**
 * What {@code queue:work} was told: the broker, the queue, how many workers, and the options each worker JVM
 * gets. Durations are whole seconds on the command line. {@code memoryMb} is the resident size past which a
 * worker is recycled after its job; {@code workerJavaOptions} go to each worker's {@code java} before its
 * main class. {@code poll} is how long an idle worker's pop waits for work: a stop waits for it too.
 */
public record SupervisorOptions(String url, String token, String queue, String group, int workers, int prefetch,
                                Duration timeout, int tries, List<Long> backoffSeconds, int leaseSeconds,
                                long memoryMb, Duration shutdownGrace, String classpath, String job,
                                boolean asyncAcks, boolean popAhead, Duration poll, List<String> workerJavaOptions) {

    public SupervisorOptions {
        backoffSeconds = List.copyOf(backoffSeconds);
        workerJavaOptions = List.copyOf(workerJavaOptions);
        if (workers < 1 || prefetch < 1 || tries < 1 || leaseSeconds < 1 || memoryMb < 1) {
            throw new IllegalArgumentException("--workers, --prefetch, --tries, --lease and --memory must be at least 1");
        }
        if (timeout.isNegative() || timeout.isZero() || poll.isNegative() || poll.isZero() || shutdownGrace.isNegative()) {
            throw new IllegalArgumentException("--timeout and --poll must be at least 1 s, --shutdown-grace 0 s or more");
        }
        if (backoffSeconds.stream().anyMatch(s -> s < 0)) {
            throw new IllegalArgumentException("--backoff must be 0 or more seconds");
        }
    }

    /** The wait before the attempt after {@code attempt}, as the worker's own {@code --backoff} reads it. */
    Duration backoffAfter(int attempt) {
        return JobOptions.defaults().backoff(backoffSeconds.stream().mapToLong(Long::longValue).toArray())
                .backoffAfter(Math.max(attempt, 1));
    }
}
