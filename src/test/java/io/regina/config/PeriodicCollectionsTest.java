package io.regina.config;

import io.regina.config.PeriodicCollections.Flags;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class PeriodicCollectionsTest {

    private static final long MB = 1L << 20;
    private static final Flags BUSY = new Flags(10_000, 70);
    private static final Flags BUSY_DONE = new Flags(0, 70);
    private static final Flags IDLE = new Flags(5_000, 30);
    private static final Flags IDLE_DONE = new Flags(0, 30);

    private final PeriodicCollections policy = new PeriodicCollections(10_000, 5_000);

    @Test
    void aBrokerStartsBusy() {
        assertThat(policy.initial()).isEqualTo(BUSY);
    }

    @Test
    void anIdleBrokerCollectsUntilTheHeapStopsShrinkingThenNoMore() {
        assertThat(policy.look(30 * MB, 400 * MB)).as("the first look has nothing to compare").isNull();
        assertThat(policy.look(31 * MB, 400 * MB)).as("idle").isEqualTo(IDLE);
        assertThat(policy.periodicCollected(400 * MB)).as("its remark shrinks later").isNull();
        assertThat(policy.look(20 * MB, 120 * MB)).as("still idle").isNull();
        assertThat(policy.periodicCollected(120 * MB)).as("the heap moved: counting again").isNull();
        assertThat(policy.periodicCollected(118 * MB)).as("within the slack: not a move").isNull();
        assertThat(policy.periodicCollected(60 * MB)).as("a later cycle shrank it again").isNull();
        assertThat(policy.periodicCollected(60 * MB)).isNull();
        assertThat(policy.periodicCollected(60 * MB)).isNull();
        assertThat(policy.periodicCollected(60 * MB)).as("four in a row gave nothing back").isEqualTo(IDLE_DONE);
        for (int i = 0; i < 10; i++) {
            assertThat(policy.look(21 * MB, 60 * MB)).as("idle, nothing left to give back").isNull();
        }
    }

    @Test
    void aLightlyLoadedBrokerGetsOneShrinkToItsLoadThenNoMoreCycles() {
        long used = 30 * MB;
        policy.look(used, 224 * MB);
        int answers = 0;
        for (int i = 0; i < 20; i++) {
            // 200 jobs/s: ~8 MB a second fills the heap, a young collection every 10-15 s
            used += 40 * MB;
            if (used > 150 * MB) {
                policy.collected();
                used = 35 * MB;
            }
            answers += policy.look(used, 224 * MB) == null ? 0 : 1;
        }
        assertThat(answers).as("busy throughout: nothing changes").isZero();
        assertThat(policy.periodicCollected(224 * MB)).as("G1 saw 10 s without a collection").isNull();
        assertThat(policy.periodicCollected(127 * MB)).as("its remark kept 70% free").isNull();
        assertThat(policy.periodicCollected(127 * MB)).isNull();
        assertThat(policy.periodicCollected(127 * MB)).isNull();
        assertThat(policy.periodicCollected(127 * MB)).isEqualTo(BUSY_DONE);
        policy.collected();
        assertThat(policy.look(100 * MB, 127 * MB)).isNull();
    }

    @Test
    void goingIdleAndBusyAgainSwitchesTheRatioAndStartsCountingAfresh() {
        policy.look(30 * MB, 400 * MB);
        assertThat(policy.look(30 * MB, 400 * MB)).isEqualTo(IDLE);
        policy.collected();
        assertThat(policy.look(90 * MB, 400 * MB)).as("a collection since the last look: busy").isEqualTo(BUSY);
        for (int i = 0; i < PeriodicCollections.FRUITLESS_LIMIT - 1; i++) {
            assertThat(policy.periodicCollected(400 * MB)).isNull();
        }
        assertThat(policy.periodicCollected(400 * MB)).isEqualTo(BUSY_DONE);
        assertThat(policy.look(91 * MB, 400 * MB)).as("idle now: a fresh count").isEqualTo(IDLE);
    }

    @Test
    void aHeapThatGrewAfterItsReturnsWereDoneIsReturnedAgain() {
        policy.look(30 * MB, 60 * MB);
        assertThat(policy.look(30 * MB, 60 * MB)).isEqualTo(IDLE);
        for (int i = 0; i < PeriodicCollections.FRUITLESS_LIMIT; i++) {
            policy.periodicCollected(60 * MB);
        }
        assertThat(policy.look(30 * MB, 64 * MB)).as("idle, within the slack").isNull();
        assertThat(policy.look(30 * MB, 300 * MB)).as("idle, grown (a humongous allocation)").isEqualTo(IDLE);
    }
}
