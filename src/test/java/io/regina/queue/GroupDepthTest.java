package io.regina.queue;

import io.regina.queue.Result.Popped;
import io.regina.testing.Broker;
import org.junit.jupiter.api.Test;

import static io.regina.testing.Broker.ackOf;
import static org.assertj.core.api.Assertions.assertThat;

/** One consumer group's depth: what it has ready, leased and delayed, and how far it has settled. */
class GroupDepthTest {

    private final Broker broker = new Broker();

    @Test
    void eachGroupCountsItsOwnReadyLeasedAndDelayed() {
        broker.push(Broker.item("q").partition("p1").payload("a"), Broker.item("q").partition("p2").payload("b"),
                Broker.item("q").partition("p2").payload("c"), Broker.item("q").payload("later").delayMs(60_000));
        Popped workers = broker.pop(Broker.from("q").group("workers").partition("p2").batch(2));
        broker.pop(Broker.from("q").group("audit").partition("p1"));

        Views.Depth w = broker.view().depth("q", "workers");
        Views.Depth audit = broker.view().depth("q", "audit");

        assertThat(w.pending()).isEqualTo(1);
        assertThat(w.reserved()).isEqualTo(2);
        assertThat(w.delayed()).isEqualTo(1);
        assertThat(audit.pending()).isEqualTo(2);
        assertThat(audit.reserved()).isEqualTo(1);

        long before = w.settledSeq();
        broker.ack(workers.messages().get(0));
        broker.ack(ackOf(workers.messages().get(1)).status(AckStatus.DLQ));
        Views.Depth after = broker.view().depth("q", "workers");
        assertThat(after.settledSeq() - before).as("two entries settled").isEqualTo(2);
        assertThat(after.reserved()).isZero();
        assertThat(broker.view().depth("q", "audit").settledSeq()).as("another group's acks move nothing here")
                .isEqualTo(audit.settledSeq());
    }

    @Test
    void aHandBackSettlesNothing() {
        broker.push("q", "a");
        Popped first = broker.pop("q");
        long before = broker.view().depth("q", null).settledSeq();

        broker.ack(first.messages().get(0), AckStatus.RETRY);

        assertThat(broker.view().depth("q", null).settledSeq()).isEqualTo(before);
        assertThat(broker.view().depth("q", null).pending()).isEqualTo(1);
    }
}
