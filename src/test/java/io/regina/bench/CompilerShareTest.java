package io.regina.bench;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.offset;

class CompilerShareTest {

    private static final long SECOND = 1_000_000_000L;

    @Test
    void noShareUntilTheRoundsSpanAWholeWindow() {
        CompilerShare share = new CompilerShare(3 * SECOND);
        share.sample(0, 0, 0);
        share.sample(SECOND, 1.0, 0.0);
        share.sample(2 * SECOND, 2.0, 0.0);

        assertThat(share.overWindow()).isNaN();
    }

    @Test
    void aQuietLastRoundDoesNotHideTheCompilingBeforeIt() {
        CompilerShare share = new CompilerShare(3 * SECOND);
        share.sample(0, 0, 0);
        share.sample(SECOND, 1.0, 0.5);
        share.sample(2 * SECOND, 2.0, 1.0);
        share.sample(3 * SECOND, 3.0, 1.0);

        assertThat(share.overWindow()).isCloseTo(1.0 / 3, offset(1e-9));
    }

    @Test
    void theWindowForgetsRoundsOlderThanItNeeds() {
        CompilerShare share = new CompilerShare(3 * SECOND);
        share.sample(0, 0, 0);
        share.sample(SECOND, 1.0, 0.9);
        share.sample(2 * SECOND, 2.0, 0.9);
        share.sample(3 * SECOND, 3.0, 0.9);
        share.sample(4 * SECOND, 4.0, 0.9);
        share.sample(5 * SECOND, 5.0, 0.95);

        // the window is the last three seconds with their samples at 2 s and 5 s: 0.05 of 3 CPU seconds
        assertThat(share.overWindow()).isCloseTo(0.05 / 3, offset(1e-9));
    }
}
