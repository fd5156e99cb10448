package io.regina.queue;

import io.regina.queue.Result.AckOutcome;
import io.regina.queue.Result.AckedAndPopped;
import io.regina.queue.Result.Delivery;
import io.regina.queue.Result.Popped;
import io.regina.queue.Result.TransactionDone;
import io.regina.testing.Broker;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.util.List;

import static io.regina.testing.Broker.ackOf;
import static io.regina.testing.Broker.data;
import static io.regina.testing.Options.options;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A pop's own lease length, and the fence that keeps a stale hand-back (a worker whose lease expired
 * while another took its job) from acking someone else's delivery.
 */
class LeaseFencingTest {

    private final Broker broker = new Broker();

    private Result ackAndPop(List<Broker.Ack> acks, int leaseSeconds) {
        return broker.apply(new Command.AckAndPop(acks.stream().map(Broker.Ack::build).toList(),
                Broker.from("q").build(broker.nextId("lease")), leaseSeconds));
    }

    private Popped popFor(int leaseSeconds) {
        return ((AckedAndPopped) ackAndPop(List.of(), leaseSeconds)).popped();
    }

    @Test
    void aPopsLeaseSecondsReplaceTheQueuesLeaseTime() {
        broker.configure("q", options().leaseTime(30));
        broker.push(Broker.item("q").partition("p1").payload("short"), Broker.item("q").partition("p2").payload("long"));

        Popped brief = popFor(5);
        Popped lengthy = popFor(120);

        assertThat(data(brief)).containsExactly("short");
        assertThat(data(lengthy)).containsExactly("long");
        broker.advanceSeconds(5).tick();
        Popped again = broker.pop("q");
        assertThat(data(again)).as("expired after 5 s, not the queue's 30").containsExactly("short");
        broker.ack(again.messages().get(0));
        broker.advanceSeconds(100).tick();
        assertThat(broker.pop("q").messages()).as("still held at 105 s of its 120").isEmpty();
        assertThat(broker.ack(lengthy.messages().get(0)).success()).isTrue();
    }

    @Test
    void withoutLeaseSecondsThePopKeepsTheQueuesLeaseTime() {
        broker.configure("q", options().leaseTime(10));
        broker.push("q", "a");
        popFor(0);

        broker.advanceSeconds(9).tick();
        assertThat(broker.pop("q").messages()).isEmpty();
        broker.advanceSeconds(1).tick();
        assertThat(data(broker.pop("q"))).containsExactly("a");
    }

    /** Worker A's lease expires and B takes the job: whatever A hands back late must leave B's delivery alone. */
    @ParameterizedTest
    @EnumSource(value = AckStatus.class, names = {"COMPLETED", "RETRY", "FAILED", "DLQ", "RELEASE"})
    void aStaleHandBackNeverTouchesTheDeliveryThatReplacedIt(AckStatus late) {
        broker.configure("q", options().leaseTime(10).retryLimit(3));
        broker.push("q", "job");
        Delivery a = broker.pop("q").messages().get(0);
        broker.advanceSeconds(10);
        Delivery b = broker.pop("q").messages().get(0);
        assertThat(b.transactionId()).isEqualTo(a.transactionId());

        AckOutcome plain = broker.ack(ackOf(a).status(late));
        Result fenced = ackAndPop(List.of(ackOf(a).status(late)), 0);
        TransactionDone inTransaction = broker.apply(new Command.Transaction(
                List.of(new Command.TxAck(ackOf(a).status(late).build())), List.of()), TransactionDone.class);
        TransactionDone required = broker.apply(new Command.Transaction(
                List.of(new Command.TxAck(ackOf(a).withoutLease().status(late).build())), List.of(a.leaseId())),
                TransactionDone.class);

        assertThat(plain.success()).isFalse();
        assertThat(plain.error()).isEqualTo("Invalid or expired lease");
        assertThat(fenced).isInstanceOfSatisfying(Result.Rejected.class, r -> {
            assertThat(r.rejection()).isEqualTo(Rejection.LEASE_NOT_HELD);
            assertThat(r.message()).contains(a.leaseId(), a.transactionId());
        });
        assertThat(inTransaction.success()).isFalse();
        assertThat(inTransaction.error()).startsWith("Invalid or expired lease");
        assertThat(required.success()).isFalse();
        assertThat(required.error()).isEqualTo("Required lease " + a.leaseId() + " is not active");

        assertThat(broker.view().leaseCount()).as("B's lease is held, and the fenced pop took none").isEqualTo(1);
        assertThat(broker.view().depth("q", null).reserved()).isEqualTo(1);
        assertThat(broker.view().failedJobs().size()).isZero();
        AckOutcome bAcks = broker.ack(b);
        assertThat(bAcks.success()).isTrue();
        assertThat(bAcks.leaseReleased()).isTrue();
        assertThat(broker.view().depth("q", null).size()).isZero();
    }

    @Test
    void aFencedRefusalAppliesNeitherItsOtherAcksNorItsPop() {
        broker.configure("q", options().leaseTime(10));
        broker.push(Broker.item("q").partition("p1").payload("stale"));
        Delivery stale = broker.pop(Broker.from("q").partition("p1")).messages().get(0);
        broker.advanceSeconds(5);
        broker.push(Broker.item("q").partition("p2").payload("fresh"));
        Delivery fresh = broker.pop(Broker.from("q").partition("p2")).messages().get(0);
        broker.advanceSeconds(5);
        broker.push(Broker.item("q").partition("p3").payload("waiting"));

        Result refused = ackAndPop(List.of(ackOf(fresh), ackOf(stale)), 0);

        assertThat(refused).isInstanceOf(Result.Rejected.class);
        assertThat(broker.view().depth("q", null).reserved()).as("fresh is still leased, unacked").isEqualTo(1);
        AckedAndPopped after = (AckedAndPopped) ackAndPop(List.of(ackOf(fresh)), 0);
        assertThat(after.acked().outcomes()).extracting(AckOutcome::success).containsExactly(true);
        assertThat(data(after.popped())).containsAnyOf("stale", "waiting");
    }

    @Test
    void aRetriedAckOfAnAppliedOneIsNoStaleHandBack() {
        broker.push("q", "a", "b");
        broker.pop(Broker.from("q").group("audit"));
        Delivery a = broker.pop(Broker.from("q").group("workers")).messages().get(0);
        assertThat(broker.ack(a).leaseReleased()).isTrue();

        AckedAndPopped again = (AckedAndPopped) broker.apply(new Command.AckAndPop(List.of(ackOf(a).build()),
                Broker.from("q").group("workers").build(broker.nextId("lease")), 0));

        assertThat(again.acked().outcomes().get(0).error())
                .as("still stored for audit, settled for workers: refused on its own, the lease is gone")
                .isEqualTo("Invalid or expired lease");
        assertThat(data(again.popped())).containsExactly("b");
    }

    @Test
    void aStaleAckOfAnUnsettledMessageIsFencedEvenWhenNoOneHoldsIt() {
        broker.configure("q", options().leaseTime(10));
        broker.push("q", "a");
        Delivery a = broker.pop("q").messages().get(0);
        broker.advanceSeconds(10);

        assertThat(ackAndPop(List.of(ackOf(a)), 0)).isInstanceOf(Result.Rejected.class);
        assertThat(data(broker.pop("q"))).as("the refused request leased nothing").containsExactly("a");
    }

    @Test
    void heldLeasesPassTheFenceAndEveryAckIsAnsweredInOrder() {
        broker.push("q", "a", "b", "c");
        Popped batch = broker.pop("q", 2);

        AckedAndPopped both = (AckedAndPopped) ackAndPop(List.of(ackOf(batch.messages().get(1)),
                ackOf(batch.messages().get(0)).transactionId("unknown"), ackOf(batch.messages().get(0))), 0);

        assertThat(both.acked().outcomes()).extracting(AckOutcome::success).containsExactly(true, false, true);
        assertThat(both.acked().outcomes().get(1).error()).as("only a stale lease refuses the whole")
                .isEqualTo("Message not found");
        assertThat(data(both.popped())).containsExactly("c");
    }
}
