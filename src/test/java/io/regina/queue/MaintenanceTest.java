package io.regina.queue;

import io.regina.queue.Result.PushStatus;
import io.regina.testing.Broker;
import org.junit.jupiter.api.Test;

import static io.regina.testing.Broker.data;
import static io.regina.testing.Broker.item;
import static org.assertj.core.api.Assertions.assertThat;

class MaintenanceTest {

    private final Broker broker = new Broker();

    @Test
    void pushesAreBufferedAndDeliveredExactlyOnceWhenMaintenanceEnds() {
        broker.apply(new Command.SetMaintenance(false, true));

        Result.Pushed pushed = broker.push(item("q").payload("a").tx("t1"), item("q").payload("b"));

        assertThat(pushed.outcomes()).extracting(Result.PushOutcome::status)
                .containsExactly(PushStatus.BUFFERED, PushStatus.BUFFERED);
        assertThat(broker.view().maintenance().bufferedMessages()).isEqualTo(2);
        assertThat(broker.pop("q").messages()).isEmpty();

        broker.apply(new Command.SetMaintenance(false, false));
        broker.apply(new Command.SetMaintenance(false, false));

        assertThat(broker.view().maintenance().bufferedMessages()).isZero();
        assertThat(data(broker.pop("q", 10))).containsExactly("a", "b");
        assertThat(broker.pop("q", 10).messages()).isEmpty();
    }

    @Test
    void bufferedDuplicatesAreDeduplicatedWhenTheyReachTheQueue() {
        broker.apply(new Command.SetMaintenance(false, true));
        broker.push(item("q").payload("a").tx("t"), item("q").payload("again").tx("t"));

        broker.apply(new Command.SetMaintenance(false, false));

        assertThat(data(broker.pop("q", 10))).containsExactly("a");
    }

    @Test
    void theBufferSurvivesASnapshot() {
        broker.apply(new Command.SetMaintenance(false, true));
        broker.push("q", "a");

        broker.reload();
        broker.apply(new Command.SetMaintenance(false, false));

        assertThat(data(broker.pop("q"))).containsExactly("a");
    }

    @Test
    void maintenanceReportsBothSwitches() {
        Result.Maintenance result = broker.apply(new Command.SetMaintenance(true, true), Result.Maintenance.class);

        assertThat(result.popMaintenanceMode()).isTrue();
        assertThat(result.maintenanceMode()).isFalse();
        assertThat(broker.view().maintenance().popMaintenanceMode()).isTrue();
    }
}
