package io.regina.config;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.function.LongUnaryOperator;

import static org.assertj.core.api.Assertions.assertThat;

class TrimScheduleTest {

    /** The seconds at which the schedule trims over {@code seconds} of looks, given the JIT's compile time at each. */
    private static List<Long> trims(long seconds, LongUnaryOperator compileMsAt) {
        TrimSchedule schedule = new TrimSchedule(0);
        List<Long> at = new ArrayList<>();
        for (long s = 1; s <= seconds; s++) {
            if (schedule.trimAt(s * 1000, compileMsAt.applyAsLong(s))) {
                at.add(s);
            }
        }
        return at;
    }

    @Test
    void aQuietJitTrimsEveryTenSeconds() {
        assertThat(trims(35, s -> 5_000)).containsExactly(10L, 20L, 30L);
    }

    @Test
    void whileTheJitCompilesAndForSixSecondsAfterItTrimsEveryTwoSeconds() {
        // compiling from second 3 to second 12 (its total grows), quiet after
        assertThat(trims(40, s -> 1_000 + 100 * Math.min(Math.max(s - 3, 0), 9)))
                .containsExactly(4L, 6L, 8L, 10L, 12L, 14L, 16L, 18L, 28L, 38L);
    }

    @Test
    void aJvmThatDoesNotSayItsCompileTimeTrimsEveryTenSeconds() {
        assertThat(trims(25, s -> -1)).containsExactly(10L, 20L);
    }
}
