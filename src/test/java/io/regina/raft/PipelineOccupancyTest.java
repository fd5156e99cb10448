package io.regina.raft;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

class PipelineOccupancyTest {

    static final long HALF_LIFE = 20_000_000L;

    @Test
    void anIdlePipelineReadsZeroAndOneBusyForAHalfLifeReadsAHalf() {
        PipelineOccupancy occupancy = new PipelineOccupancy(HALF_LIFE, 0);
        assertThat(occupancy.at(5 * HALF_LIFE)).isZero();
        occupancy.mark(true, 5 * HALF_LIFE);
        assertThat(occupancy.at(6 * HALF_LIFE)).isCloseTo(0.5, within(1e-9));
        assertThat(occupancy.at(20 * HALF_LIFE)).isCloseTo(1.0, within(1e-4));
    }

    @Test
    void aBusyPipelineLeftIdleForgetsByHalvesAndAlternationReadsItsShare() {
        PipelineOccupancy occupancy = new PipelineOccupancy(HALF_LIFE, 0);
        occupancy.mark(true, 0);
        occupancy.mark(false, 30 * HALF_LIFE);
        assertThat(occupancy.at(31 * HALF_LIFE)).isCloseTo(0.5, within(1e-6));
        assertThat(occupancy.at(32 * HALF_LIFE)).isCloseTo(0.25, within(1e-6));

        // busy 0.3 ms of every 1 ms, as a log fsyncing ~1,000 small entries a second
        long t = 40 * HALF_LIFE;
        for (int i = 0; i < 1_000; i++) {
            occupancy.mark(true, t);
            occupancy.mark(false, t + 300_000);
            t += 1_000_000;
        }
        assertThat(occupancy.at(t)).isCloseTo(0.3, within(0.02));
    }

    @Test
    void aClockThatStepsBackCountsAsNoTimePassed() {
        PipelineOccupancy occupancy = new PipelineOccupancy(HALF_LIFE, 1_000);
        occupancy.mark(true, 1_000);
        assertThat(occupancy.at(500)).isZero();
    }

    @Test
    void refusesANonPositiveHalfLife() {
        assertThatThrownBy(() -> new PipelineOccupancy(0, 0)).isInstanceOf(IllegalArgumentException.class);
    }
}
