package io.regina.api;

import org.junit.jupiter.api.Test;

import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

class DrainRatesTest {
    private static final long SECOND = 1_000_000_000L;

    private final AtomicLong now = new AtomicLong(5 * SECOND);
    private final DrainRates rates = new DrainRates(now::get);

    @Test
    void theRateIsTheRiseOfTheSettledPositionOverTheLastMinute() {
        assertThat(rates.observe("q", "g", 100)).as("one reading: no rate yet").isNull();
        now.addAndGet(SECOND / 2);
        assertThat(rates.observe("q", "g", 150)).as("half a second is too short to tell").isNull();
        now.addAndGet(SECOND * 3 / 2);
        assertThat(rates.observe("q", "g", 140 + 60)).isEqualTo(50.0);
        assertThat(rates.observe("q", "other", 7)).as("each group its own").isNull();
    }

    @Test
    void samplesOlderThanTheWindowAreForgotten() {
        rates.observe("q", "g", 0);
        now.addAndGet(30 * SECOND);
        rates.observe("q", "g", 3_000);
        now.addAndGet(40 * SECOND);
        assertThat(rates.observe("q", "g", 3_400)).as("from the reading 40 s ago").isEqualTo(10.0);
        now.addAndGet(61 * SECOND);
        assertThat(rates.observe("q", "g", 3_400)).as("nothing within the last minute").isNull();
    }

    @Test
    void aFallStartsOver() {
        rates.observe("q", "g", 500);
        now.addAndGet(10 * SECOND);
        assertThat(rates.observe("q", "g", 100)).as("a seek back").isNull();
        now.addAndGet(10 * SECOND);
        assertThat(rates.observe("q", "g", 200)).isEqualTo(10.0);
    }
}
