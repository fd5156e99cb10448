package io.regina.raft;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class LeaderTickerTest {

    private static final long NOW = 1_700_000_000_000L;

    @Test
    void anIdleLeaderSleepsUntilItsNextTickWhenNoTimerIsSooner() {
        assertThat(LeaderTicker.nextLook(NOW, NOW - 400, 1000, Long.MAX_VALUE)).isEqualTo(NOW + 600);
    }

    @Test
    void aTimerDueBeforeTheNextTickWakesItSooner() {
        assertThat(LeaderTicker.nextLook(NOW, NOW - 400, 1000, NOW + 50)).isEqualTo(NOW + 50);
    }

    @Test
    void itLooksAtLeastOnceASecondForSubmissionsNotCommittedInTime() {
        assertThat(LeaderTicker.nextLook(NOW, NOW, 60_000, NOW + 30_000))
                .isEqualTo(NOW + LeaderTicker.EXPIRE_CHECK_MS);
    }
}
