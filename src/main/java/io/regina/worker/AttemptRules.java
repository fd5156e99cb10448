package io.regina.worker;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * The retry decisions of a job kind's {@link JobOptions}, with no clock and no I/O of their own:
 * whether a delivery may run at all, and what an attempt's {@link Outcome} makes of the job. {@code attempt}
 * is the message's {@code attempts} (this delivery included); {@code exceptionsBefore} the exceptions its
 * earlier attempts threw.
 */
final class AttemptRules {

    private AttemptRules() {
    }

    /** Why this delivery must fail without running, or empty when it may run. */
    static Optional<String> refuseToStart(String kind, JobOptions options, int attempt, Instant dispatched,
                                          Instant now) {
        if (options.retryUntil() != null) {
            return now.isBefore(dispatched.plus(options.retryUntil())) ? Optional.empty()
                    : Optional.of(kind + " is past its retryUntil (" + options.retryUntil() + " after dispatch)");
        }
        return attempt <= options.tries() ? Optional.empty()
                : Optional.of(kind + " has been attempted too many times (attempt " + attempt + " of "
                        + options.tries() + ")");
    }

    static Verdict judge(String kind, JobOptions options, int attempt, int exceptionsBefore, Instant dispatched,
                         Instant now, Outcome outcome) {
        if (outcome instanceof Outcome.Completed) {
            return new Verdict.Complete();
        }
        if (outcome instanceof Outcome.Released released) {
            return new Verdict.Release(released.delay());
        }
        if (outcome instanceof Outcome.FailedByJob failed) {
            return new Verdict.Fail(failed.reason(), null);
        }
        if (outcome instanceof Outcome.Stopped) {
            // the attempt ran, so it counts; it runs again as soon as another worker is free
            return new Verdict.Release(Duration.ZERO);
        }
        if (outcome instanceof Outcome.TimedOut timedOut) {
            String error = kind + " timed out after " + timedOut.limit();
            return options.failOnTimeout() ? new Verdict.Fail(error, null)
                    : retryOrFail(options, attempt, dispatched, now, error, null);
        }
        Throwable exception = ((Outcome.Threw) outcome).exception();
        String error = exception.toString();
        if (options.maxExceptions() > 0 && exceptionsBefore + 1 >= options.maxExceptions()) {
            return new Verdict.Fail(error + " (" + kind + " reached maxExceptions " + options.maxExceptions() + ")",
                    exception);
        }
        return retryOrFail(options, attempt, dispatched, now, error, exception);
    }

    private static Verdict retryOrFail(JobOptions options, int attempt, Instant dispatched, Instant now, String error,
                                       Throwable cause) {
        boolean again = options.retryUntil() != null ? now.isBefore(dispatched.plus(options.retryUntil()))
                : attempt < options.tries();
        return again ? new Verdict.Retry(options.backoffAfter(attempt), error) : new Verdict.Fail(error, cause);
    }
}
