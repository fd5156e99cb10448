package io.regina.bench;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.offset;

class CompilerShareTest {

    private static final long SECOND = 1_000_000_000L;

    /** A three-second window sampled once a second, the broker having used one CPU second each second. */
    private static CompilerShare sampledEverySecond(double... cumulativeCompilerSeconds) {
        CompilerShare share = new CompilerShare(3 * SECOND);
        for (int i = 0; i < cumulativeCompilerSeconds.length; i++) {
            share.sample(i * SECOND, i, cumulativeCompilerSeconds[i]);
        }
        return share;
    }

    @Test
    void noShareUntilTheRoundsSpanAWholeWindow() {
        assertThat(sampledEverySecond(0, 0, 0).overWindow()).isNaN();
    }

    @Test
    void aQuietLastRoundDoesNotHideTheCompilingBeforeIt() {
        assertThat(sampledEverySecond(0, 0.5, 1.0, 1.0).overWindow()).isCloseTo(1.0 / 3, offset(1e-9));
    }

    @Test
    void theWindowForgetsRoundsOlderThanItNeeds() {
        // the window is the last three seconds, between the samples at 2 s and 5 s: 0.05 of 3 CPU seconds
        assertThat(sampledEverySecond(0, 0.9, 0.9, 0.9, 0.9, 0.95).overWindow()).isCloseTo(0.05 / 3, offset(1e-9));
    }
}
