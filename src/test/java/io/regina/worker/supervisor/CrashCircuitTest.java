package io.regina.worker.supervisor;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;

import static org.assertj.core.api.Assertions.assertThat;

class CrashCircuitTest {
    private final CrashCircuit circuit = new CrashCircuit(3, Duration.ofSeconds(60), Duration.ofSeconds(1),
            Duration.ofSeconds(5));
    private final Instant t0 = Instant.parse("2026-01-01T00:00:00Z");

    @Test
    void opensAtTheThresholdWithinTheWindowAndDoublesUpToTheLongest() {
        assertThat(circuit.crashed(t0)).isZero();
        assertThat(circuit.crashed(t0.plusSeconds(1))).isZero();
        assertThat(circuit.crashed(t0.plusSeconds(2))).isEqualTo(Duration.ofSeconds(1));
        assertThat(circuit.crashed(t0.plusSeconds(3))).isEqualTo(Duration.ofSeconds(2));
        assertThat(circuit.crashed(t0.plusSeconds(4))).isEqualTo(Duration.ofSeconds(4));
        assertThat(circuit.crashed(t0.plusSeconds(5))).isEqualTo(Duration.ofSeconds(5));
    }

    @Test
    void crashesFurtherApartThanTheWindowNeverOpenIt() {
        for (int i = 0; i < 10; i++) {
            assertThat(circuit.crashed(t0.plusSeconds(31L * i))).as("crash " + i).isZero();
        }
    }

    @Test
    void aQuietWindowClosesItAndTheBackoffStartsAgain() {
        circuit.crashed(t0);
        circuit.crashed(t0.plusSeconds(1));
        circuit.crashed(t0.plusSeconds(2));
        assertThat(circuit.crashed(t0.plusSeconds(3))).isEqualTo(Duration.ofSeconds(2));
        Instant later = t0.plusSeconds(120);
        assertThat(circuit.crashed(later)).isZero();
        circuit.crashed(later.plusSeconds(1));
        assertThat(circuit.crashed(later.plusSeconds(2))).isEqualTo(Duration.ofSeconds(1));
    }
}
