package io.regina.worker;

import java.time.Duration;

/** What one attempt of a job did, before {@link AttemptRules} turns it into a {@link Verdict}. */
sealed interface Outcome {

    record Completed() implements Outcome {
    }

    record Threw(Throwable exception) implements Outcome {
    }

    record TimedOut(Duration limit) implements Outcome {
    }

    /** The job called {@link JobContext#release}. */
    record Released(Duration delay) implements Outcome {
    }

    /** The job called {@link JobContext#fail}. */
    record FailedByJob(String reason) implements Outcome {
    }

    /** A stop's grace ran out while it ran, and it was interrupted. */
    record Stopped() implements Outcome {
    }
}
