package io.regina.config;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class PeriodicCollectionsTest {

    private static final long MB = 1L << 20;
    private static final long INTERVAL = 10_000;

    private final PeriodicCollections policy = new PeriodicCollections(INTERVAL);

    @Test
    void anIdleBrokerStopsCollectingOnceTheHeapStopsShrinking() {
        assertThat(policy.afterCollection(false, 400 * MB)).as("a busy spell's last young collection").isEqualTo(-1);
        assertThat(policy.afterCollection(true, 400 * MB)).as("first periodic: its remark shrinks").isEqualTo(-1);
        assertThat(policy.afterCollection(true, 120 * MB)).as("the heap moved: counting again").isEqualTo(-1);
        assertThat(policy.afterCollection(true, 120 * MB)).isEqualTo(-1);
        assertThat(policy.afterCollection(true, 118 * MB)).as("within the slack: not a move").isEqualTo(-1);
        assertThat(policy.afterCollection(true, 60 * MB)).as("a later cycle shrank it again").isEqualTo(-1);
        assertThat(policy.afterCollection(true, 60 * MB)).isEqualTo(-1);
        assertThat(policy.afterCollection(true, 60 * MB)).isEqualTo(-1);
        assertThat(policy.afterCollection(true, 60 * MB)).as("four in a row returned nothing").isZero();
    }

    @Test
    void loadThatGrowsTheHeapTurnsItBackOnAndTheNextIdleSpellOffAgain() {
        idleUntilOff(60 * MB);
        assertThat(policy.afterCollection(false, 64 * MB)).as("young collections at the same size").isEqualTo(-1);
        assertThat(policy.afterCollection(false, 220 * MB)).as("the heap grew under load").isEqualTo(INTERVAL);
        assertThat(policy.afterCollection(false, 300 * MB)).as("already on").isEqualTo(-1);
        idleUntilOff(300 * MB);
    }

    @Test
    void aLightLoadThatNeverGrowsTheHeapLeavesItOff() {
        idleUntilOff(80 * MB);
        for (int i = 0; i < 20; i++) {
            assertThat(policy.afterCollection(false, 80 * MB)).isEqualTo(-1);
        }
        assertThat(policy.afterCollection(false, 40 * MB)).as("a shrink is not load").isEqualTo(-1);
        assertThat(policy.afterCollection(false, 44 * MB)).isEqualTo(-1);
    }

    @Test
    void youngCollectionsBetweenPeriodicOnesDoNotCountAsFruitless() {
        policy.afterCollection(false, 200 * MB);
        for (int i = 0; i < 10; i++) {
            assertThat(policy.afterCollection(false, 200 * MB)).isEqualTo(-1);
        }
        assertThat(policy.afterCollection(true, 200 * MB)).isEqualTo(-1);
        assertThat(policy.afterCollection(false, 200 * MB)).isEqualTo(-1);
        assertThat(policy.afterCollection(true, 200 * MB)).isEqualTo(-1);
        assertThat(policy.afterCollection(true, 200 * MB)).isEqualTo(-1);
        assertThat(policy.afterCollection(true, 200 * MB)).as("the fourth periodic one").isZero();
    }

    private void idleUntilOff(long committed) {
        long answer = -1;
        for (int i = 0; i < PeriodicCollections.FRUITLESS_LIMIT && answer != 0; i++) {
            answer = policy.afterCollection(true, committed);
        }
        assertThat(answer).as("off after %d fruitless periodic collections", PeriodicCollections.FRUITLESS_LIMIT)
                .isZero();
    }
}
