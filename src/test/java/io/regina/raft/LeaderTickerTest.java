package io.regina.raft;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class LeaderTickerTest {

    private static final long NOW = 1_700_000_000_000L;

    @Test
    void anIdleLeaderSleepsUntilItsNextTickWhenNoTimerIsSooner() {
        assertThat(LeaderTicker.nextLook(NOW, NOW + 600, Long.MAX_VALUE)).isEqualTo(NOW + 600);
    }

    @Test
    void aTimerDueBeforeTheNextTickWakesItSooner() {
        assertThat(LeaderTicker.nextLook(NOW, NOW + 600, NOW + 50)).isEqualTo(NOW + 50);
    }

    @Test
    void itLooksAtLeastOnceASecondForSubmissionsNotCommittedInTime() {
        assertThat(LeaderTicker.nextLook(NOW, NOW + 60_000, NOW + 30_000))
                .isEqualTo(NOW + LeaderTicker.EXPIRE_CHECK_MS);
        assertThat(LeaderTicker.nextLook(NOW, Long.MAX_VALUE, Long.MAX_VALUE))
                .as("no regular tick and no timer").isEqualTo(NOW + LeaderTicker.EXPIRE_CHECK_MS);
    }
}
