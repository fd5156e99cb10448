package io.regina.raft;

import org.apache.ratis.retry.RetryPolicy;
import org.apache.ratis.server.RaftServerConfigKeys;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class AppenderRetryPolicyTest {

    private final RetryPolicy policy = RetryPolicy.parse(RatisProperties.APPENDER_RETRY_POLICY,
            RaftServerConfigKeys.Log.Appender.RETRY_POLICY_KEY);

    private long sleepMsAfter(int errors) {
        RetryPolicy.Action action = policy.handleAttemptFailure(() -> errors);
        assertThat(action.shouldRetry()).as("still waits after %d errors", errors).isTrue();
        return action.getSleepTime().toLong(java.util.concurrent.TimeUnit.MILLISECONDS);
    }

    @Test
    void aFollowerFarPastItsFirstErrorsIsRetriedWithinAFifthOfASecond() {
        // each step back to where a returning follower's log agrees is one error: none may cost seconds
        assertThat(sleepMsAfter(31)).isLessThan(200);
        assertThat(sleepMsAfter(5_000)).isLessThan(200);
    }

    @Test
    void aFollowerThatStaysDownIsNotRetriedInABusyLoop() {
        // a day of a dead follower at ten retries a second is still inside the policy, never a zero wait
        assertThat(sleepMsAfter(1_000_000)).isGreaterThanOrEqualTo(50);
    }
}
