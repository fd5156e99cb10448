package io.regina.testing;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class EventuallyTest {

    @Test
    void returnsTheFirstValueThatPasses() {
        AtomicInteger calls = new AtomicInteger();
        int value = Eventually.await(Duration.ofSeconds(5), "three calls", calls::incrementAndGet, n -> n >= 3);
        assertThat(value).isEqualTo(3);
    }

    @Test
    void failsWithTheDescriptionAndTheLastValue() {
        assertThatThrownBy(() -> Eventually.await(Duration.ofMillis(100), "the answer", () -> 41, n -> n == 42))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("waiting for the answer")
                .hasMessageContaining("last observed: 41");
    }

    @Test
    void anExceptionIsNotYetAndIsReportedAsTheLastObservation() {
        AtomicInteger calls = new AtomicInteger();
        Eventually.await(Duration.ofSeconds(5), "a listening port", () -> {
            if (calls.incrementAndGet() < 3) {
                throw new IOException("connection refused");
            }
            return true;
        });
        assertThat(calls).hasValue(3);

        assertThatThrownBy(() -> Eventually.await(Duration.ofMillis(100), "a listening port", () -> {
            throw new IOException("connection refused");
        })).hasMessageContaining("last observed: java.io.IOException: connection refused")
                .hasCauseInstanceOf(IOException.class);
    }

    @Test
    void anErrorEndsTheWaitAtOnce() {
        AtomicInteger calls = new AtomicInteger();
        assertThatThrownBy(() -> Eventually.await(Duration.ofSeconds(30), "never", () -> {
            calls.incrementAndGet();
            throw new AssertionError("the broker exited");
        })).hasMessage("the broker exited");
        assertThat(calls).hasValue(1);
    }

    @Test
    void withinSaysWhetherTheConditionHeldInTime() {
        assertThat(Eventually.within(Duration.ofMillis(50), () -> false)).isFalse();
        assertThat(Eventually.within(Duration.ofSeconds(5), () -> true)).isTrue();
    }
}
