package io.regina.queue;

import io.regina.testing.Broker;
import org.junit.jupiter.api.Test;

import static io.regina.testing.Broker.from;
import static io.regina.testing.Options.options;
import static org.assertj.core.api.Assertions.assertThat;

/** When the leader must tick every interval with no timer due: only for work that waits on the clock alone. */
class RegularTicksTest {

    private final Broker broker = new Broker();

    @Test
    void queuesWithoutAgeBasedEvictionNeedNone() {
        broker.configure("jobs", options().leaseTime(30).retryLimit(3));
        broker.push("jobs", "a");
        broker.pop("jobs");
        assertThat(broker.state().needsRegularTicks()).as("a lease's expiry is a timer").isFalse();
        broker.configure("kept", options().retentionSeconds(60).retentionEnabled(false));
        assertThat(broker.state().needsRegularTicks()).as("retention turned off").isFalse();
    }

    @Test
    void retentionAndMaxWaitTimeNeedThem() {
        broker.configure("jobs");
        broker.configure("kept", options().retentionSeconds(60));
        assertThat(broker.state().needsRegularTicks()).isTrue();
        broker.configure("kept", options());
        assertThat(broker.state().needsRegularTicks()).as("the option taken away again").isFalse();
        broker.configure("bounded", options().maxWaitTimeSeconds(30));
        assertThat(broker.state().needsRegularTicks()).isTrue();
    }

    @Test
    void completedRetentionNeedsThemInQueueModeOrWhenRetentionIsOn() {
        broker.configure("done", options().completedRetentionSeconds(60));
        assertThat(broker.state().needsRegularTicks()).as("queue mode").isTrue();
        broker.push("done", "a");
        broker.pop(from("done").group("billing"));
        assertThat(broker.state().needsRegularTicks()).as("a named group, retention off").isFalse();
        broker.configure("done", options().completedRetentionSeconds(60).retentionEnabled(true));
        assertThat(broker.state().needsRegularTicks()).isTrue();
    }

    @Test
    void aDiskAlarmNeedsThemUntilItLapsesByTheStatesClock() {
        broker.apply(new Command.DiskAlarm("n3", true));
        assertThat(broker.state().needsRegularTicks()).isTrue();
        broker.advance(DiskAlarms.LAPSE_MS - 1).tick();
        assertThat(broker.state().needsRegularTicks()).isTrue();
        broker.advance(1).tick();
        assertThat(broker.state().needsRegularTicks()).as("lapsed: a dead node's alarm").isFalse();
    }
}
