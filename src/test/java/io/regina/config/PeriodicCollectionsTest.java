package io.regina.config;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class PeriodicCollectionsTest {

    private static final long MB = 1L << 20;
    private static final long INTERVAL = 5_000;

    private final PeriodicCollections policy = new PeriodicCollections(INTERVAL);

    @Test
    void anIdleBrokerCollectsUntilTheHeapStopsShrinkingThenNoMore() {
        assertThat(policy.look(30 * MB, 400 * MB)).as("the first look has nothing to compare").isEqualTo(-1);
        assertThat(policy.look(31 * MB, 400 * MB)).as("idle: on").isEqualTo(INTERVAL);
        assertThat(policy.periodicCollected(400 * MB)).as("its remark shrinks later").isEqualTo(-1);
        assertThat(policy.look(20 * MB, 120 * MB)).as("still idle, already on").isEqualTo(-1);
        assertThat(policy.periodicCollected(120 * MB)).as("the heap moved: counting again").isEqualTo(-1);
        assertThat(policy.periodicCollected(118 * MB)).as("within the slack: not a move").isEqualTo(-1);
        assertThat(policy.periodicCollected(60 * MB)).as("a later cycle shrank it again").isEqualTo(-1);
        assertThat(policy.periodicCollected(60 * MB)).isEqualTo(-1);
        assertThat(policy.periodicCollected(60 * MB)).isEqualTo(-1);
        assertThat(policy.periodicCollected(60 * MB)).as("four in a row gave nothing back: off").isZero();
        for (int i = 0; i < 10; i++) {
            assertThat(policy.look(21 * MB, 60 * MB)).as("idle, nothing left to give back").isEqualTo(-1);
        }
    }

    @Test
    void aBusyBrokerHasItOffHoweverLongBetweenItsCollections() {
        long used = 30 * MB;
        policy.look(used, 224 * MB);
        for (int i = 0; i < 20; i++) {
            // 200 jobs/s: ~8 MB a second fills the heap, a young collection every 10-15 s
            used += 40 * MB;
            if (used > 150 * MB) {
                policy.collected();
                used = 35 * MB;
            }
            assertThat(policy.look(used, 224 * MB)).isEqualTo(-1);
        }
    }

    @Test
    void loadTurnsItOffAndAnIdleSpellAfterTheHeapGrewTurnsItOnAgain() {
        policy.look(30 * MB, 400 * MB);
        assertThat(policy.look(30 * MB, 400 * MB)).isEqualTo(INTERVAL);
        policy.collected();
        assertThat(policy.look(90 * MB, 400 * MB)).as("a collection since the last look: busy").isZero();
        idleUntilDone(60 * MB);
        policy.collected();
        assertThat(policy.look(80 * MB, 64 * MB)).as("busy, off already").isEqualTo(-1);
        assertThat(policy.look(81 * MB, 64 * MB)).as("idle, but the heap did not grow").isEqualTo(-1);
        policy.collected();
        assertThat(policy.look(120 * MB, 300 * MB)).as("busy, grown").isEqualTo(-1);
        assertThat(policy.look(121 * MB, 300 * MB)).as("idle after growing").isEqualTo(INTERVAL);
    }

    @Test
    void aPeriodicCollectionThatRacedTheTurningOffIsNotCounted() {
        policy.look(30 * MB, 400 * MB);
        policy.look(30 * MB, 400 * MB);
        policy.collected();
        assertThat(policy.look(90 * MB, 400 * MB)).isZero();
        for (int i = 0; i < 2 * PeriodicCollections.FRUITLESS_LIMIT; i++) {
            assertThat(policy.periodicCollected(400 * MB)).isEqualTo(-1);
        }
        assertThat(policy.look(91 * MB, 400 * MB)).as("idle again, not done: on").isEqualTo(INTERVAL);
    }

    private void idleUntilDone(long committed) {
        assertThat(policy.look(committed / 2, committed)).as("idle: on").isEqualTo(INTERVAL);
        long answer = -1;
        for (int i = 0; i < PeriodicCollections.FRUITLESS_LIMIT && answer != 0; i++) {
            answer = policy.periodicCollected(committed);
        }
        assertThat(answer).as("off after %d fruitless periodic collections", PeriodicCollections.FRUITLESS_LIMIT)
                .isZero();
    }
}
