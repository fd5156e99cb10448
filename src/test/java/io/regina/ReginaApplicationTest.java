package io.regina;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class ReginaApplicationTest {

    @Test
    void aBrokerRunsOneEventLoopPerTwoCoresAndAtLeastOne() {
        assertThat(ReginaApplication.eventLoops(1)).isEqualTo(1);
        assertThat(ReginaApplication.eventLoops(2)).as("the benchmark machine").isEqualTo(1);
        assertThat(ReginaApplication.eventLoops(3)).isEqualTo(1);
        assertThat(ReginaApplication.eventLoops(8)).isEqualTo(4);
    }
}
