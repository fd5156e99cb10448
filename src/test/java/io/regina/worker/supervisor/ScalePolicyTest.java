package io.regina.worker.supervisor;

import io.regina.client.Depth;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;

import static org.assertj.core.api.Assertions.assertThat;

class ScalePolicyTest {
    private final Instant t0 = Instant.parse("2026-01-01T00:00:00Z");
    private final ScalePolicy policy = new ScalePolicy(1, 8, 1, Duration.ofSeconds(30));

    private static Depth depth(long ready, long leased, Long drainSeconds) {
        return new Depth("q", null, ready, leased, 0, ready + leased, drainSeconds == null ? null : 1.0, drainSeconds);
    }

    private int at(long seconds, boolean deliverable, Depth depth) {
        return policy.decide(t0.plusSeconds(seconds), deliverable, depth, 1);
    }

    @Test
    void startsAtTheFloorAndJumpsToTheDemandTheMomentABurstIsDeliverable() {
        assertThat(at(0, false, depth(0, 0, 0L))).isEqualTo(1);
        assertThat(at(1, true, depth(5, 0, null))).isEqualTo(5);
        assertThat(at(2, true, depth(3000, 5, null))).as("capped at --max").isEqualTo(8);
    }

    @Test
    void demandCountsBatchesOfThePrefetchAndTheLeasedJobs() {
        ScalePolicy prefetching = new ScalePolicy(1, 8, 4, Duration.ofSeconds(30));
        assertThat(prefetching.decide(t0, true, depth(9, 4, null), 1)).as("ceil(13 / 4)").isEqualTo(4);
    }

    @Test
    void doesNotGrowForWorkThatWaitsBehindLeasedPartitions() {
        assertThat(at(0, false, depth(50, 1, null))).isEqualTo(1);
    }

    @Test
    void doesNotGrowWhenTheRunningWorkersDrainTheBacklogSoonerThanAWorkerStarts() {
        at(0, true, depth(1, 0, null));
        assertThat(at(1, true, depth(20, 1, ScalePolicy.WORTH_A_WORKER.toSeconds()))).isEqualTo(1);
        assertThat(at(2, true, depth(20, 1, ScalePolicy.WORTH_A_WORKER.toSeconds() + 1))).as("21 batches, capped at --max")
                .isEqualTo(8);
    }

    @Test
    void fromZeroWorkersAKnownDrainRateDoesNotHoldItBack() {
        ScalePolicy toZero = new ScalePolicy(0, 4, 1, Duration.ofSeconds(5));
        assertThat(toZero.decide(t0, false, depth(0, 0, 0L), 1)).isZero();
        assertThat(toZero.decide(t0.plusSeconds(1), true, depth(1, 0, 1L), 1)).isOne();
    }

    @Test
    void shrinksOnlyAfterTheDemandStayedLowForTheCoolDownToItsPeakMeanwhile() {
        at(0, true, depth(8, 0, null));
        assertThat(at(1, false, depth(0, 3, 3L))).isEqualTo(8);
        assertThat(at(20, false, depth(0, 2, 2L))).isEqualTo(8);
        assertThat(at(31, false, depth(0, 1, 1L))).as("the highest demand of the lull").isEqualTo(3);
        assertThat(at(40, false, depth(0, 0, 0L))).isEqualTo(3);
        assertThat(at(69, false, depth(0, 0, 0L))).as("a new cool-down from 40 s").isEqualTo(3);
        assertThat(at(70, false, depth(0, 0, 0L))).as("down to --min, never below").isEqualTo(1);
    }

    @Test
    void aSampleAtTheTargetRestartsTheCoolDownSoALullDoesNotFlap() {
        at(0, true, depth(4, 0, null));
        at(1, false, depth(0, 0, 0L));
        assertThat(at(20, false, depth(0, 4, 4L))).isEqualTo(4);
        at(21, false, depth(0, 0, 0L));
        assertThat(at(50, false, depth(0, 0, 0L))).as("29 s after the lull began again").isEqualTo(4);
        assertThat(at(51, false, depth(0, 0, 0L))).isEqualTo(1);
    }

    @Test
    void boundsAreTheFloorAndCeilingOfAllTheMembers() {
        assertThat(policy.decide(t0, false, depth(0, 0, 0L), 3)).as("3 x --min").isEqualTo(3);
        assertThat(policy.decide(t0.plusSeconds(1), true, depth(100, 0, null), 3)).as("3 x --max").isEqualTo(24);
        assertThat(policy.decide(t0.plusSeconds(2), true, depth(100, 0, null), 2)).as("a member gone").isEqualTo(16);
    }

    @Test
    void theSameSamplesGiveTheSameTargets() {
        ScalePolicy other = new ScalePolicy(1, 8, 1, Duration.ofSeconds(30));
        long[][] samples = {{0, 0}, {7, 0}, {2, 5}, {0, 3}, {0, 0}, {0, 0}, {12, 0}};
        for (int i = 0; i < samples.length; i++) {
            Depth d = depth(samples[i][0], samples[i][1], null);
            assertThat(other.decide(t0.plusSeconds(10L * i), d.ready() > 0, d, 1))
                    .isEqualTo(at(10L * i, d.ready() > 0, d));
        }
    }
}
