package io.regina.queue;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class DiskAlarmsTest {

    private final BrokerState state = new BrokerState();

    private Result alarm(String node, boolean raised, long now) {
        return state.apply(new Command.DiskAlarm(node, raised), now);
    }

    @Test
    void aRaisedAlarmIsUpOnEveryNodesStateUntilItsNodeClearsIt() {
        assertThat(alarm("n2", true, 1_000)).isEqualTo(new Result.DiskAlarms(java.util.List.of("n2")));
        alarm("n1", true, 1_100);
        assertThat(state.view().diskAlarms()).containsExactly("n1", "n2");

        assertThat(alarm("n2", false, 1_200)).isEqualTo(new Result.DiskAlarms(java.util.List.of("n1")));
        assertThat(state.view().diskAlarms()).containsExactly("n1");
    }

    @Test
    void anAlarmNotRefreshedLapsesSoADeadNodeDoesNotHoldPushesForever() {
        alarm("n3", true, 1_000);
        state.apply(new Command.Tick(), 1_000 + DiskAlarms.LAPSE_MS - 1);
        assertThat(state.view().diskAlarms()).containsExactly("n3");

        state.apply(new Command.Tick(), 1_000 + DiskAlarms.LAPSE_MS);
        assertThat(state.view().diskAlarms()).isEmpty();
    }

    @Test
    void aRefreshKeepsTheAlarmUpPastTheFirstLapse() {
        alarm("n3", true, 1_000);
        alarm("n3", true, 1_000 + DiskAlarms.REFRESH_MS);
        state.apply(new Command.Tick(), 1_000 + DiskAlarms.LAPSE_MS + 1);

        assertThat(state.view().diskAlarms()).containsExactly("n3");
    }

    @Test
    void clearingAnAlarmNeverRaisedChangesNothing() {
        assertThat(alarm("n1", false, 1_000)).isEqualTo(new Result.DiskAlarms(java.util.List.of()));
    }
}
