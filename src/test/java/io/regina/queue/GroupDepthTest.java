package io.regina.queue;

import io.regina.queue.Result.Popped;
import io.regina.testing.Broker;
import io.regina.testing.Options;
import org.junit.jupiter.api.Test;

import java.util.List;

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

    @Test
    void theRunningSumsFollowSeeksClearsDeletionsAndEvictions() {
        broker.configure("q", Options.options().maxWaitTimeSeconds(60));
        broker.push(Broker.item("q").partition("p1").payload("a"), Broker.item("q").partition("p1").payload("b"),
                Broker.item("q").partition("p2").payload("c"), Broker.item("q").payload("later").delayMs(5_000));
        Popped audit = broker.pop(Broker.from("q").group("audit").partition("p1").batch(2));
        broker.pop(Broker.from("q").partition("p2"));
        WalkedDepth.check(broker.state());
        assertThat(broker.view().depth("q", "audit")).isEqualTo(new Views.Depth(1, 2, 1, 0));

        broker.ack(audit.messages().get(1));
        WalkedDepth.check(broker.state());
        assertThat(broker.view().depth("q", "audit").reserved()).as("one of two acked, ahead of the other")
                .isEqualTo(1);

        broker.apply(new Command.Seek("audit", "q", 0, true));
        WalkedDepth.check(broker.state());
        assertThat(broker.view().depth("q", "audit")).as("sought to the end: nothing pending or leased")
                .isEqualTo(new Views.Depth(0, 0, 1, 3));

        broker.apply(new Command.Seek("audit", "q", 0, false));
        WalkedDepth.check(broker.state());
        assertThat(broker.view().depth("q", "audit").pending()).as("sought back to the start").isEqualTo(3);

        broker.advance(6_000).tick();
        WalkedDepth.check(broker.state());
        assertThat(broker.view().depth("q", "audit").pending()).as("the delayed message came due").isEqualTo(4);

        broker.apply(new Command.ClearQueue("q"));
        WalkedDepth.check(broker.state());
        assertThat(broker.view().depth("q", null).pending()).as("cleared; the leased one stays").isZero();
        assertThat(broker.view().depth("q", null).reserved()).isEqualTo(1);

        broker.push(Broker.item("q").partition("p3").payload("d"));
        broker.apply(new Command.DeleteGroup("audit", "q"));
        broker.apply(new Command.DeleteGroup(Group.QUEUE_MODE, "q"));
        WalkedDepth.check(broker.state());
        broker.reload();
        WalkedDepth.check(broker.state());

        broker.advanceSeconds(120).tick();
        WalkedDepth.check(broker.state());
        assertThat(broker.view().depth("q", null)).as("evicted after maxWaitTime").isEqualTo(
                new Views.Depth(0, 0, 0, broker.view().depth("q", null).settledSeq()));
    }

    @Test
    void theOldestPendingMessageIsTheEarliestCreatedNotYetConsumedInAnyPartition() {
        assertThat(broker.view().oldestPendingCreatedAt("q")).as("no queue").isZero();
        broker.push(Broker.item("q").partition("p1").payload("a"));
        long first = broker.now();
        broker.advance(1_000).push(Broker.item("q").partition("p2").payload("b"));
        assertThat(broker.view().oldestPendingCreatedAt("q")).isEqualTo(first);

        broker.ack(broker.pop(Broker.from("q").partition("p1")).messages().get(0));
        assertThat(broker.view().oldestPendingCreatedAt("q")).isEqualTo(first + 1_000);
        broker.ack(broker.pop(Broker.from("q").partition("p2")).messages().get(0));
        assertThat(broker.view().oldestPendingCreatedAt("q")).as("all consumed").isZero();
    }

    @Test
    void deliverableWorkIsExactWhereTheReadyHintIsNot() {
        assertThat(broker.view().hasDeliverable("q", null, List.of())).as("no queue").isFalse();
        broker.push(Broker.item("q").partition("p1").payload("a"));
        assertThat(broker.view().hasDeliverable("q", "fresh", List.of())).as("a group yet to read").isTrue();
        Popped held = broker.pop(Broker.from("q").partition("p1"));

        assertThat(broker.view().hasDeliverable("q", null, List.of())).as("p1 is leased").isFalse();
        broker.push(Broker.item("q").partition("p2").payload("b"));
        assertThat(broker.view().hasDeliverable("q", null, List.of())).isTrue();
        assertThat(broker.view().hasDeliverable("q", null, List.of("p1"))).isFalse();
        assertThat(broker.view().hasDeliverable("q", null, List.of("p1", "p2"))).isTrue();

        broker.ack(held.messages().get(0));
        broker.ack(broker.pop(Broker.from("q").partition("p2")).messages().get(0));
        assertThat(broker.view().hasDeliverable("q", null, List.of())).as("all consumed").isFalse();
        broker.apply(new Command.PauseQueue("q", true));
        broker.push(Broker.item("q").partition("p1").payload("c"));
        assertThat(broker.view().hasDeliverable("q", null, List.of())).as("paused").isFalse();
    }
}
