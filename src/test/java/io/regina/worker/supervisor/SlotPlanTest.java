package io.regina.worker.supervisor;

import io.regina.worker.supervisor.SlotPlan.Occupant;
import org.junit.jupiter.api.Test;

import static io.regina.worker.supervisor.SlotPlan.Occupant.BUSY;
import static io.regina.worker.supervisor.SlotPlan.Occupant.EMPTY;
import static io.regina.worker.supervisor.SlotPlan.Occupant.IDLE;
import static io.regina.worker.supervisor.SlotPlan.Occupant.LEAVING;
import static org.assertj.core.api.Assertions.assertThat;

class SlotPlanTest {

    private static boolean[] wanted(String flags) {
        boolean[] wanted = new boolean[flags.length()];
        for (int i = 0; i < wanted.length; i++) {
            wanted[i] = flags.charAt(i) == 'x';
        }
        return wanted;
    }

    private static String plan(String flags, int desired, Occupant... occupants) {
        boolean[] next = SlotPlan.resize(wanted(flags), occupants, desired);
        StringBuilder out = new StringBuilder();
        for (boolean w : next) {
            out.append(w ? 'x' : '.');
        }
        return out.toString();
    }

    @Test
    void growsIntoTheLowestEmptySlotsBeforeOnesWhoseWorkerIsStillLeaving() {
        assertThat(plan("x...", 3, BUSY, LEAVING, EMPTY, EMPTY)).isEqualTo("x.xx");
        assertThat(plan("x...", 4, BUSY, LEAVING, EMPTY, EMPTY)).isEqualTo("xxxx");
    }

    @Test
    void shrinksEmptyThenLeavingThenIdleSlotsTheHighestFirst() {
        assertThat(plan("xxxx", 3, IDLE, EMPTY, IDLE, BUSY)).isEqualTo("x.xx");
        assertThat(plan("xxxx", 2, IDLE, LEAVING, IDLE, EMPTY)).isEqualTo("x.x.");
        assertThat(plan("xxxx", 2, IDLE, BUSY, IDLE, BUSY)).isEqualTo(".x.x");
    }

    @Test
    void neverLetsABusyWorkerGoItWaitsUntilItIsIdle() {
        assertThat(plan("xxx", 1, BUSY, BUSY, IDLE)).isEqualTo("xx.");
        assertThat(plan("xx.", 1, BUSY, IDLE, LEAVING)).isEqualTo("x..");
    }

    @Test
    void atTheDesiredCountNothingChanges() {
        assertThat(plan("x.x.", 2, IDLE, EMPTY, BUSY, EMPTY)).isEqualTo("x.x.");
        assertThat(SlotPlan.first(2, 4)).containsExactly(true, true, false, false);
    }
}
