package io.regina.worker;

import java.time.Duration;
import java.util.List;

/**
 * How one job kind is retried, Laravel's job properties:
 * <ul>
 * <li>{@code tries}: attempts in all, releases and timeouts included; a job delivered for attempt
 *     {@code tries + 1} (it was released, or its worker died) fails without running.</li>
 * <li>{@code backoff}: the wait before attempt n + 1 after attempt n failed: element n - 1, the last one for
 *     every later attempt (one element is a fixed backoff).</li>
 * <li>{@code timeout}: the longest an attempt may run (null: no limit); past it the attempt counts as
 *     failed, or the job fails for good when {@code failOnTimeout}.</li>
 * <li>{@code retryUntil}: when set, the job is retried after a failure as long as it was dispatched less
 *     than this long ago, whatever {@code tries} says.</li>
 * <li>{@code maxExceptions}: the job fails for good at its n-th exception (0: no limit), even with tries
 *     left; releases and timeouts are not exceptions.</li>
 * </ul>
 */
public record JobOptions(int tries, List<Duration> backoff, Duration timeout, Duration retryUntil, int maxExceptions,
                         boolean failOnTimeout) {

    public JobOptions {
        if (tries < 1) {
            throw new IllegalArgumentException("tries must be at least 1, got " + tries);
        }
        backoff = List.copyOf(backoff);
    }

    /** One try, no backoff, 60 s timeout, no retryUntil, no exception limit: Laravel's worker defaults. */
    public static JobOptions defaults() {
        return new JobOptions(1, List.of(), Duration.ofSeconds(60), null, 0, false);
    }

    public JobOptions tries(int attempts) {
        return new JobOptions(attempts, backoff, timeout, retryUntil, maxExceptions, failOnTimeout);
    }

    /** Seconds to wait before each retry: one number for all, or one per retry, the last repeated. */
    public JobOptions backoff(long... seconds) {
        return new JobOptions(tries, java.util.Arrays.stream(seconds).mapToObj(Duration::ofSeconds).toList(), timeout,
                retryUntil, maxExceptions, failOnTimeout);
    }

    public JobOptions backoff(List<Duration> waits) {
        return new JobOptions(tries, waits, timeout, retryUntil, maxExceptions, failOnTimeout);
    }

    /** The longest an attempt may run; null for no limit. */
    public JobOptions timeout(Duration longest) {
        return new JobOptions(tries, backoff, longest, retryUntil, maxExceptions, failOnTimeout);
    }

    public JobOptions retryUntil(Duration afterDispatch) {
        return new JobOptions(tries, backoff, timeout, afterDispatch, maxExceptions, failOnTimeout);
    }

    public JobOptions maxExceptions(int exceptions) {
        return new JobOptions(tries, backoff, timeout, retryUntil, exceptions, failOnTimeout);
    }

    public JobOptions failOnTimeout(boolean fail) {
        return new JobOptions(tries, backoff, timeout, retryUntil, maxExceptions, fail);
    }

    /** The wait before the attempt after {@code attempt} failed. */
    public Duration backoffAfter(int attempt) {
        return backoff.isEmpty() ? Duration.ZERO : backoff.get(Math.min(attempt, backoff.size()) - 1);
    }
}
