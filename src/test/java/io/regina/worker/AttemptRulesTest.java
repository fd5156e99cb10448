package io.regina.worker;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;

import static org.assertj.core.api.Assertions.assertThat;

/** The retry decisions of {@link JobOptions}, attempt by attempt, with no broker. */
class AttemptRulesTest {
    private static final Instant DISPATCHED = Instant.parse("2026-12-01T10:00:00Z");
    private static final Instant NOW = DISPATCHED.plusSeconds(30);
    private static final Outcome THREW = new Outcome.Threw(new IllegalStateException("boom"));

    private static Verdict judge(JobOptions options, int attempt, int exceptionsBefore, Outcome outcome) {
        return AttemptRules.judge("mail", options, attempt, exceptionsBefore, DISPATCHED, NOW, outcome);
    }

    @Test
    void anExceptionIsRetriedWithTheBackoffOfItsAttemptUntilTheTriesAreUsed() {
        JobOptions options = JobOptions.defaults().tries(4).backoff(2, 5);

        assertThat(judge(options, 1, 0, THREW))
                .isEqualTo(new Verdict.Retry(Duration.ofSeconds(2), "java.lang.IllegalStateException: boom"));
        assertThat(judge(options, 2, 1, THREW)).isEqualTo(new Verdict.Retry(Duration.ofSeconds(5),
                "java.lang.IllegalStateException: boom"));
        assertThat(judge(options, 3, 2, THREW)).as("the last backoff repeats")
                .isEqualTo(new Verdict.Retry(Duration.ofSeconds(5), "java.lang.IllegalStateException: boom"));
        assertThat(judge(options, 4, 3, THREW)).isInstanceOfSatisfying(Verdict.Fail.class, fail -> {
            assertThat(fail.reason()).isEqualTo("java.lang.IllegalStateException: boom");
            assertThat(fail.cause()).isSameAs(((Outcome.Threw) THREW).exception());
        });
    }

    @Test
    void oneTryAndNoBackoffFailAtTheFirstException() {
        assertThat(judge(JobOptions.defaults(), 1, 0, THREW)).isInstanceOf(Verdict.Fail.class);
        assertThat(judge(JobOptions.defaults().tries(2), 1, 0, THREW))
                .isEqualTo(new Verdict.Retry(Duration.ZERO, "java.lang.IllegalStateException: boom"));
    }

    @Test
    void aRetryWithoutBackoffStillSendsADelaySoTheBrokerRetriesThisJobAlone() {
        var ack = new Verdict.Retry(Duration.ZERO, "e").ack(
                new io.regina.client.Message("m", "t", null, null, null, null, "p", "Default", "l", "g", 1));
        assertThat(ack.retryAfterMs()).isEqualTo(1);
        assertThat(ack.status()).isEqualTo(io.regina.client.AckStatus.FAILED);
    }

    @Test
    void maxExceptionsFailsTheJobWithTriesLeft() {
        JobOptions options = JobOptions.defaults().tries(10).maxExceptions(2);

        assertThat(judge(options, 1, 0, THREW)).isInstanceOf(Verdict.Retry.class);
        assertThat(judge(options, 5, 1, THREW)).isInstanceOfSatisfying(Verdict.Fail.class,
                fail -> assertThat(fail.reason()).contains("maxExceptions 2"));
        assertThat(judge(options, 5, 1, new Outcome.TimedOut(Duration.ofSeconds(3))))
                .as("a timeout is not an exception").isInstanceOf(Verdict.Retry.class);
    }

    @Test
    void aTimeoutIsAFailedAttemptOrFinalWithFailOnTimeout() {
        Outcome timedOut = new Outcome.TimedOut(Duration.ofSeconds(3));

        assertThat(judge(JobOptions.defaults().tries(2).backoff(1), 1, 0, timedOut))
                .isEqualTo(new Verdict.Retry(Duration.ofSeconds(1), "mail timed out after PT3S"));
        assertThat(judge(JobOptions.defaults().tries(2), 2, 0, timedOut)).isInstanceOf(Verdict.Fail.class);
        assertThat(judge(JobOptions.defaults().tries(5).failOnTimeout(true), 1, 0, timedOut))
                .isEqualTo(new Verdict.Fail("mail timed out after PT3S", null));
    }

    @Test
    void retryUntilReplacesTries() {
        JobOptions options = JobOptions.defaults().tries(1).retryUntil(Duration.ofMinutes(1)).backoff(3);

        assertThat(judge(options, 7, 6, THREW)).as("dispatched 30 s ago, a minute allowed")
                .isEqualTo(new Verdict.Retry(Duration.ofSeconds(3), "java.lang.IllegalStateException: boom"));
        assertThat(AttemptRules.judge("mail", options, 7, 6, DISPATCHED, DISPATCHED.plusSeconds(61), THREW))
                .isInstanceOf(Verdict.Fail.class);
        assertThat(AttemptRules.refuseToStart("mail", options, 50, DISPATCHED, NOW)).isEmpty();
        assertThat(AttemptRules.refuseToStart("mail", options, 1, DISPATCHED, DISPATCHED.plusSeconds(60)))
                .hasValueSatisfying(reason -> assertThat(reason).contains("retryUntil"));
    }

    @Test
    void aDeliveryPastItsTriesFailsWithoutRunning() {
        JobOptions options = JobOptions.defaults().tries(3);

        assertThat(AttemptRules.refuseToStart("mail", options, 3, DISPATCHED, NOW)).isEmpty();
        assertThat(AttemptRules.refuseToStart("mail", options, 4, DISPATCHED, NOW)).hasValue(
                "mail has been attempted too many times (attempt 4 of 3)");
    }

    @Test
    void releaseFailAndStopAreTheirOwnVerdicts() {
        JobOptions options = JobOptions.defaults().tries(3);

        assertThat(judge(options, 3, 0, new Outcome.Released(Duration.ofSeconds(9))))
                .isEqualTo(new Verdict.Release(Duration.ofSeconds(9)));
        assertThat(judge(options, 1, 0, new Outcome.FailedByJob("card declined")))
                .isEqualTo(new Verdict.Fail("card declined", null));
        assertThat(judge(options, 1, 0, new Outcome.Stopped())).as("it ran: counted, and back at once")
                .isEqualTo(new Verdict.Release(Duration.ZERO));
        assertThat(judge(options, 1, 0, new Outcome.Completed())).isEqualTo(new Verdict.Complete());
    }
}
