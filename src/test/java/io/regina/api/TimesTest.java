package io.regina.api;

import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;

class TimesTest {

    @Test
    void isoWritesWhatInstantWrites() {
        long[] edges = {1, 999, 1000, 86_399_999, 86_400_000, 951_782_400_000L /* 2000-02-29 */,
                4_107_542_399_999L /* 2100-02-28T23:59:59.999 */, 4_107_542_400_000L, 1_764_900_000_120L,
                253_402_300_799_999L /* 9999-12-31T23:59:59.999 */};
        for (long millis : edges) {
            assertThat(Times.iso(millis)).as("%d", millis).isEqualTo(Instant.ofEpochMilli(millis).toString());
        }
        SplittableRandom random = new SplittableRandom(8);
        for (int i = 0; i < 200_000; i++) {
            long millis = random.nextLong(1, 253_402_300_800_000L);
            assertThat(Times.iso(millis)).as("%d", millis).isEqualTo(Instant.ofEpochMilli(millis).toString());
        }
    }

    @Test
    void isoPastYear9999IsInstantsOwnFormat() {
        long millis = 253_402_300_800_000L;
        assertThat(Times.iso(millis)).isEqualTo("+10000-01-01T00:00:00Z");
    }

    @Test
    void isoOfNoTimeIsNull() {
        assertThat(Times.iso(0)).isNull();
        assertThat(Times.iso(-5)).isNull();
    }
}
