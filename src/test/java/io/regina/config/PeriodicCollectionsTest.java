package io.regina.config;

import io.regina.config.PeriodicCollections.Flags;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class PeriodicCollectionsTest {

    private static final long MB = 1L << 20;
    private static final Flags BUSY = new Flags(10_000, 50);
    private static final Flags BUSY_DONE = new Flags(0, 50);
    private static final Flags BUSY_SOON = new Flags(1_000, 50);

    private final PeriodicCollections policy = new PeriodicCollections(10_000, 5_000, 0);

    @Test
    void aBrokerStartsBusy() {
        assertThat(policy.initial()).isEqualTo(BUSY);
    }

    @Test
    void anIdleBrokerCollectsUntilTheHeapStopsShrinkingThenNoMore() {
        Flags sixtyPercent = new Flags(5_000, 60);
        assertThat(policy.look(30 * MB, 400 * MB)).as("the first look has nothing to compare").isNull();
        assertThat(policy.look(31 * MB, 400 * MB)).as("idle, nothing collected yet: what the look saw")
                .isEqualTo(sixtyPercent);
        assertThat(policy.periodicCollected(400 * MB, 36 * MB)).as("its remark shrinks later; same ratio").isNull();
        assertThat(policy.look(20 * MB, 120 * MB)).as("still idle").isNull();
        assertThat(policy.periodicCollected(120 * MB, 36 * MB)).as("the heap moved: counting again").isNull();
        assertThat(policy.periodicCollected(118 * MB, 36 * MB)).as("within the slack: not a move").isNull();
        assertThat(policy.periodicCollected(100 * MB, 36 * MB)).as("a later cycle shrank it again").isNull();
        assertThat(policy.periodicCollected(100 * MB, 36 * MB)).isNull();
        assertThat(policy.periodicCollected(100 * MB, 36 * MB)).isNull();
        assertThat(policy.periodicCollected(100 * MB, 36 * MB)).as("four in a row gave nothing back")
                .isEqualTo(new Flags(0, 60));
        for (int i = 0; i < 10; i++) {
            assertThat(policy.look(21 * MB, 100 * MB)).as("idle, nothing left to give back").isNull();
        }
    }

    @Test
    void anIdleBrokerKeepsRoomForTheNextLoadAboveWhatItUses() {
        policy.collected(90 * MB);
        policy.look(120 * MB, 224 * MB);
        assertThat(policy.look(121 * MB, 224 * MB)).as("idle after a lane that left 90 MB used: 64 MB above it")
                .isEqualTo(new Flags(5_000, 42));
        assertThat(policy.periodicCollected(224 * MB, 70 * MB))
                .as("the cycle found 70 MB used: the next remark keeps 64 MB above that, not 42% of it")
                .isEqualTo(new Flags(5_000, 48));
        assertThat(policy.periodicCollected(134 * MB, 70 * MB)).as("same use, same ratio").isNull();
    }

    @Test
    void aBusyHeapKeepsAsMuchFreeAsUsedButStaysOverItsFloor() {
        long floor = 104 * MB;
        assertThat(PeriodicCollections.busyMaxFree(60 * MB, floor)).as("60 MB used: 120 MB is over the floor")
                .isEqualTo(50);
        assertThat(PeriodicCollections.busyMaxFree(40 * MB, floor)).as("56 MB as the remark counts: 112 is over")
                .isEqualTo(50);
        assertThat(PeriodicCollections.busyMaxFree(20 * MB, floor)).as("36 as the remark counts: 68 / 104, rounded up")
                .isEqualTo(66);
        assertThat(PeriodicCollections.busyMaxFree(0, floor)).as("the JVM's 70% at most").isEqualTo(70);
        assertThat(PeriodicCollections.busyMaxFree(-1, floor)).as("nothing seen yet").isEqualTo(70);
        long occupied = 20 * MB + PeriodicCollections.REMARK_WASTE_BYTES;
        long heapAfterRemark = (long) (occupied / (1 - PeriodicCollections.busyMaxFree(20 * MB, floor) / 100.0));
        assertThat(heapAfterRemark).as("what G1's remark keeps").isBetween(floor, floor + 2 * MB);
    }

    @Test
    void aBusyBrokersRatioFollowsWhatItsCollectionsLeave() {
        PeriodicCollections floored = new PeriodicCollections(10_000, 5_000, 104 * MB);
        assertThat(floored.initial()).as("nothing collected yet").isEqualTo(new Flags(10_000, 70));
        assertThat(floored.collected(20 * MB)).isEqualTo(new Flags(10_000, 66));
        assertThat(floored.collected(20 * MB)).as("same use, same ratio").isNull();
        assertThat(floored.collected(70 * MB)).isEqualTo(BUSY);
        floored.look(70 * MB, 140 * MB);
        floored.look(70 * MB, 140 * MB);
        assertThat(floored.collected(30 * MB)).as("idle: the idle ratio is the look's to set").isNull();
    }

    @Test
    void theIdleRatioIsBetweenThirtyAndSixtyPercent() {
        assertThat(PeriodicCollections.idleMaxFree(0)).isEqualTo(60);
        assertThat(PeriodicCollections.idleMaxFree(33 * MB)).as("64 / 97 is over the ceiling").isEqualTo(60);
        assertThat(PeriodicCollections.idleMaxFree(45 * MB)).as("64 / 109, rounded up").isEqualTo(59);
        assertThat(PeriodicCollections.idleMaxFree(1L << 30)).as("a gigabyte of backlog: 30%, not 64 MB")
                .isEqualTo(30);
        long used = 100 * MB;
        long heapAfterRemark = (long) (used / (1 - PeriodicCollections.idleMaxFree(used) / 100.0));
        assertThat(heapAfterRemark - used).as("room G1's remark leaves").isBetween(64 * MB, 68 * MB);
    }

    @Test
    void aLightlyLoadedBrokerGetsOneShrinkToItsLoadThenNoMoreCycles() {
        long used = 30 * MB;
        policy.look(used, 224 * MB);
        List<Flags> answers = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            // 200 jobs/s: ~8 MB a second fills the heap, a young collection every 10-15 s
            used += 40 * MB;
            if (used > 150 * MB) {
                answers.add(policy.collected(35 * MB));
                used = 35 * MB;
            }
            answers.add(policy.look(used, 224 * MB));
        }
        assertThat(answers).as("busy, and 224 MB far over the 70 a remark keeps above 35: one change, to a cycle "
                + "after a second without a collection").containsOnlyOnce(BUSY_SOON).containsOnly(BUSY_SOON, null);
        assertThat(policy.periodicCollected(224 * MB, 38 * MB)).as("G1 saw a second without a collection: one "
                + "cycle, then the busy interval").isEqualTo(BUSY);
        assertThat(policy.collected(38 * MB)).as("not looked at since").isNull();
        assertThat(policy.look(70 * MB, 80 * MB)).as("its remark kept 50% free").isNull();
        assertThat(policy.periodicCollected(80 * MB, 38 * MB)).isNull();
        assertThat(policy.periodicCollected(80 * MB, 38 * MB)).isNull();
        assertThat(policy.periodicCollected(80 * MB, 38 * MB)).isNull();
        assertThat(policy.periodicCollected(80 * MB, 38 * MB)).isEqualTo(BUSY_DONE);
        policy.collected(40 * MB);
        assertThat(policy.look(70 * MB, 80 * MB)).isNull();
    }

    @Test
    void goingIdleAndBusyAgainSwitchesTheRatioAndStartsCountingAfresh() {
        policy.look(30 * MB, 400 * MB);
        assertThat(policy.look(30 * MB, 400 * MB)).isEqualTo(new Flags(5_000, 60));
        policy.collected(40 * MB);
        assertThat(policy.look(90 * MB, 400 * MB)).as("a collection since the last look: busy, and 400 MB is far "
                + "over the 112 a remark at 50% keeps above 40").isEqualTo(BUSY_SOON);
        assertThat(policy.periodicCollected(400 * MB, 40 * MB)).as("one cycle a request").isEqualTo(BUSY);
        for (int i = 0; i < PeriodicCollections.FRUITLESS_LIMIT - 2; i++) {
            assertThat(policy.periodicCollected(400 * MB, 40 * MB)).isNull();
        }
        assertThat(policy.periodicCollected(400 * MB, 40 * MB)).as("four cycles that did not shrink it")
                .isEqualTo(BUSY_DONE);
        assertThat(policy.look(91 * MB, 400 * MB)).as("idle now: a fresh count").isEqualTo(new Flags(5_000, 60));
    }

    @Test
    void aLoadThatComesAndGoesDoesNotRestartCyclesThatFindNothingToReturn() {
        PeriodicCollections floored = new PeriodicCollections(10_000, 5_000, 104 * MB);
        floored.look(40 * MB, 104 * MB);
        assertThat(floored.look(40 * MB, 104 * MB)).as("idle").isEqualTo(new Flags(5_000, 60));
        assertThat(floored.periodicCollected(104 * MB, 39 * MB)).isNull();
        assertThat(floored.periodicCollected(104 * MB, 39 * MB)).as("104 MB, where both ratios keep more").isNull();
        floored.collected(40 * MB);
        assertThat(floored.look(75 * MB, 104 * MB)).as("busy at 200 jobs/s: the count goes on").isEqualTo(BUSY);
        assertThat(floored.periodicCollected(104 * MB, 40 * MB)).isNull();
        assertThat(floored.look(75 * MB, 104 * MB)).as("idle again, same heap, same use")
                .isEqualTo(new Flags(5_000, 60));
        assertThat(floored.periodicCollected(104 * MB, 39 * MB)).as("four in a row across the changes")
                .isEqualTo(new Flags(0, 60));
        floored.collected(40 * MB);
        assertThat(floored.look(75 * MB, 104 * MB)).as("busy: no cycle after 10 s without a collection")
                .isEqualTo(BUSY_DONE);
        assertThat(floored.look(75 * MB, 104 * MB)).as("idle: none either").isEqualTo(new Flags(0, 60));
        floored.collected(52 * MB);
        assertThat(floored.look(80 * MB, 104 * MB)).as("a heavier load left 13 MB more used: a cycle's mixed "
                + "collections may free it").isEqualTo(BUSY);
        cyclesReturnNothing(floored, 104 * MB, 40 * MB);
        floored.collected(40 * MB);
        assertThat(floored.look(80 * MB, 104 * MB)).as("done again").isNull();
        assertThat(floored.look(80 * MB, 104 * MB)).as("idle again: nothing for a cycle to return")
                .isEqualTo(new Flags(0, 60));
    }

    @Test
    void aChangeAfterWhichARemarkWouldShrinkTheHeapByTwoRegionsRestartsTheCycles() {
        PeriodicCollections floored = new PeriodicCollections(10_000, 5_000, 104 * MB);
        floored.look(40 * MB, 120 * MB);
        floored.look(40 * MB, 120 * MB);
        cyclesReturnNothing(floored, 120 * MB, 39 * MB);
        floored.collected(39 * MB);
        assertThat(floored.look(75 * MB, 120 * MB)).as("busy: a remark at 50% keeps 110 MB of the 120 the pool "
                + "lanes left").isEqualTo(BUSY);
    }

    @Test
    void aChangeToARatioThatKeepsLessRestartsTheCycles() {
        policy.collected(100 * MB);
        assertThat(policy.look(150 * MB, 232 * MB)).as("busy: 232 MB is what a remark at 50% keeps above 100")
                .isNull();
        for (int i = 0; i < PeriodicCollections.FRUITLESS_LIMIT - 1; i++) {
            policy.periodicCollected(232 * MB, 100 * MB);
        }
        assertThat(policy.periodicCollected(232 * MB, 100 * MB)).isEqualTo(BUSY_DONE);
        assertThat(policy.look(150 * MB, 232 * MB)).as("idle: 64 MB above 100 is 40% free, 193 MB, 39 under the heap")
                .isEqualTo(new Flags(5_000, 40));
    }

    @Test
    void aHeapThatGrewAfterItsReturnsWereDoneIsReturnedAgain() {
        policy.look(30 * MB, 60 * MB);
        assertThat(policy.look(30 * MB, 60 * MB)).isEqualTo(new Flags(5_000, 60));
        for (int i = 0; i < PeriodicCollections.FRUITLESS_LIMIT - 1; i++) {
            assertThat(policy.periodicCollected(60 * MB, 20 * MB)).isNull();
        }
        assertThat(policy.periodicCollected(60 * MB, 20 * MB)).isEqualTo(new Flags(0, 60));
        assertThat(policy.look(30 * MB, 64 * MB)).as("idle, within the slack").isNull();
        assertThat(policy.look(30 * MB, 300 * MB)).as("idle, grown (a humongous allocation)")
                .isEqualTo(new Flags(5_000, 60));
    }

    @Test
    void aBusyHeapWellOverWhatItsRatioKeepsGetsACycleSoonAndTheBusyIntervalOnceShrunk() {
        PeriodicCollections floored = new PeriodicCollections(10_000, 5_000, 104 * MB);
        floored.collected(38 * MB);
        assertThat(floored.look(80 * MB, 139 * MB)).as("the paced lane after the pool's bursts: 139 MB where a "
                + "remark at 50% keeps 108").isEqualTo(BUSY_SOON);
        floored.collected(38 * MB);
        assertThat(floored.look(80 * MB, 139 * MB)).as("no remark yet: still soon").isNull();
        assertThat(floored.periodicCollected(139 * MB, 38 * MB)).as("the cycle's start (its remark comes later): "
                + "one cycle a request").isEqualTo(BUSY);
        floored.collected(38 * MB);
        assertThat(floored.look(80 * MB, 108 * MB)).as("shrunk to what it keeps").isNull();
        floored.collected(38 * MB);
        assertThat(floored.look(90 * MB, 108 * MB)).isNull();
    }

    @Test
    void aHeapIsOversizedFourRegionsOverWhatARemarkKeeps() {
        assertThat(PeriodicCollections.oversized(139 * MB, 38 * MB, 50)).as("108 kept, 31 over").isTrue();
        assertThat(PeriodicCollections.oversized(120 * MB, 38 * MB, 50)).as("12 over: under four regions").isFalse();
        assertThat(PeriodicCollections.oversized(122 * MB, 20 * MB, 66)).as("105 kept, 17 over").isTrue();
        assertThat(PeriodicCollections.oversized(139 * MB, -1, 70)).as("nothing collected yet").isFalse();
        assertThat(PeriodicCollections.oversized(-1, 38 * MB, 50)).as("nothing looked at yet").isFalse();
    }

    @Test
    void aBusyBrokerWhoseSoonCycleShrankNothingAsksNoMoreUntilItsHeapGrows() {
        assertThat(policy.look(60 * MB, 300 * MB)).as("nothing collected yet").isNull();
        assertThat(policy.collected(40 * MB)).as("300 MB, where a remark at 50% keeps 112").isEqualTo(BUSY_SOON);
        assertThat(policy.periodicCollected(300 * MB, 40 * MB)).as("the cycle's start").isEqualTo(BUSY);
        policy.collected(40 * MB);
        assertThat(policy.look(70 * MB, 300 * MB)).as("its remark gave nothing back: still oversized, not soon again")
                .isNull();
        policy.collected(40 * MB);
        assertThat(policy.look(70 * MB, 300 * MB)).isNull();
        policy.collected(40 * MB);
        assertThat(policy.look(70 * MB, 420 * MB)).as("grown past it: soon again").isEqualTo(BUSY_SOON);
    }

    /** As many periodic collections in a row as stop them, each leaving the heap where it was. */
    private static void cyclesReturnNothing(PeriodicCollections policy, long committedBytes, long usedBytes) {
        for (int i = 0; i < PeriodicCollections.FRUITLESS_LIMIT; i++) {
            policy.periodicCollected(committedBytes, usedBytes);
        }
    }
}
