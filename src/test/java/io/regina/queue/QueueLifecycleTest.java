package io.regina.queue;

import io.regina.testing.Broker;
import org.junit.jupiter.api.Test;

import static io.regina.testing.Broker.ackOf;
import static io.regina.testing.Broker.data;
import static io.regina.testing.Broker.from;
import static io.regina.testing.Broker.item;
import static org.assertj.core.api.Assertions.assertThat;

class QueueLifecycleTest {

    private final Broker broker = new Broker();

    @Test
    void deleteRemovesPartitionsMessagesLeasesAndFailedJobs() {
        broker.push(item("q").partition("p1"), item("q").partition("p2"), item("q").delayMs(10_000));
        broker.pop(from("q").group("g"));
        broker.ack(ackOf(broker.pop("q").messages().get(0)).status(AckStatus.DLQ));
        broker.push("other", "x");

        Result.QueueDeleted deleted = broker.apply(new Command.DeleteQueue("q"), Result.QueueDeleted.class);

        assertThat(deleted.existed()).isTrue();
        assertThat(broker.view().hasQueue("q")).isFalse();
        assertThat(broker.view().leaseCount()).isZero();
        assertThat(broker.view().failedJobs().size()).isZero();
        assertThat(broker.view().storedMessages()).isEqualTo(1);
        broker.advanceSeconds(20).tick();
        assertThat(broker.view().hasQueue("q")).as("the delayed message died with its queue").isFalse();
    }

    @Test
    void deleteOfAnUnknownQueueSaysItDidNotExist() {
        Result.QueueDeleted deleted = broker.apply(new Command.DeleteQueue("nowhere"), Result.QueueDeleted.class);

        assertThat(deleted.existed()).isFalse();
    }

    @Test
    void aQueueCreatedAgainAfterDeleteStartsEmpty() {
        broker.push(item("q").tx("t"));
        broker.apply(new Command.DeleteQueue("q"));

        Result.PushOutcome again = broker.push(item("q").tx("t")).outcomes().get(0);

        assertThat(again.status()).isEqualTo(Result.PushStatus.QUEUED);
        assertThat(broker.view().depth("q", null).pending()).isEqualTo(1);
    }

    @Test
    void clearRemovesPendingAndDelayedMessagesButNotLeasedOnes() {
        broker.push("q", "leased", "pending");
        broker.push(item("q").payload("delayed").delayMs(10_000));
        var leased = broker.pop("q").messages().get(0);

        Result.Cleared cleared = broker.apply(new Command.ClearQueue("q"), Result.Cleared.class);

        assertThat(cleared.cleared()).isEqualTo(2);
        assertThat(broker.view().depth("q", null).size()).isEqualTo(1);
        assertThat(broker.ack(leased).success()).isTrue();
        broker.advanceSeconds(20);
        assertThat(broker.pop("q").messages()).isEmpty();
        assertThat(broker.view().storedMessages()).isZero();
    }

    @Test
    void clearAppliesToEveryGroup() {
        broker.push("q", "a");
        broker.pop(from("q").group("g").batch(0).autoAck());
        broker.apply(new Command.Seek("g", "q", 0, false));

        broker.apply(new Command.ClearQueue("q"));

        assertThat(broker.pop(from("q").group("g")).messages()).isEmpty();
        assertThat(broker.pop("q").messages()).isEmpty();
    }

    @Test
    void clearOfAnUnknownQueueClearsNothing() {
        assertThat(broker.apply(new Command.ClearQueue("nowhere"), Result.Cleared.class).cleared()).isZero();
    }

    @Test
    void depthCountsPendingReservedAndDelayed() {
        broker.push("q", "a", "b", "c");
        broker.push(item("q").delayMs(1_000));
        broker.pop("q", 2);

        Views.Depth depth = broker.view().depth("q", null);

        assertThat(depth.pending()).isEqualTo(1);
        assertThat(depth.reserved()).isEqualTo(2);
        assertThat(depth.delayed()).isEqualTo(1);
        assertThat(depth.size()).isEqualTo(4);
    }

    @Test
    void tracesAreRecordedNewestFirst() {
        broker.apply(new Command.RecordTrace("tr1", "t", "p", "g", java.util.List.of("a"), "info", "{}"));
        broker.apply(new Command.RecordTrace("tr2", "t", "p", "g", java.util.List.of("b"), "info", "{}"));

        assertThat(broker.view().traces("t", 10)).extracting(BrokerState.Trace::traceId)
                .containsExactly("tr2", "tr1");
    }

    @Test
    void timeNeverRunsBackwards() {
        broker.push("q", "a");
        long later = broker.now() + 1_000;
        broker.state().apply(new Command.Tick(), later);

        broker.state().apply(new Command.Tick(), later - 500);

        assertThat(broker.view().lastAppliedTime()).isEqualTo(later);
        assertThat(data(broker.pop("q"))).containsExactly("a");
    }
}
