package io.regina.queue;

import io.regina.queue.Command.TxAck;
import io.regina.queue.Command.TxOperation;
import io.regina.queue.Command.TxPush;
import io.regina.queue.Result.Delivery;
import io.regina.queue.Result.TransactionDone;
import io.regina.testing.Broker;
import org.junit.jupiter.api.Test;

import java.util.List;

import static io.regina.testing.Broker.ackOf;
import static io.regina.testing.Broker.data;
import static io.regina.testing.Broker.item;
import static org.assertj.core.api.Assertions.assertThat;

class TransactionTest {

    private final Broker broker = new Broker();

    private TransactionDone transaction(List<String> requiredLeases, TxOperation... operations) {
        return broker.apply(new Command.Transaction(List.of(operations), requiredLeases), TransactionDone.class);
    }

    private TransactionDone transaction(TxOperation... operations) {
        return transaction(List.of(), operations);
    }

    private TxPush pushOf(Broker.Item... items) {
        return new TxPush(broker.pushItems(items));
    }

    @Test
    void pushesAndAcksApplyTogether() {
        broker.push("in", "job");
        Delivery job = broker.pop("in").messages().get(0);

        TransactionDone done = transaction(new TxAck(ackOf(job).build()),
                pushOf(item("out").payload("result").tx("r1")));

        assertThat(done.success()).isTrue();
        assertThat(done.results()).extracting(Result.TxOutcome::type).containsExactly("ack", "push");
        assertThat(done.results()).allSatisfy(r -> assertThat(r.success()).isTrue());
        assertThat(done.results().get(1).transactionId()).isEqualTo("r1");
        assertThat(done.results().get(1).messageId()).isNotNull();
        assertThat(broker.view().depth("in", null).size()).isZero();
        assertThat(data(broker.pop("out"))).containsExactly("result");
    }

    @Test
    void aDuplicatePushFailsTheTransactionAndNothingApplies() {
        broker.push(item("out").tx("taken"));
        broker.push("in", "job");
        Delivery job = broker.pop("in").messages().get(0);

        TransactionDone done = transaction(new TxAck(ackOf(job).build()),
                pushOf(item("out").tx("fresh"), item("out").tx("taken")));

        assertThat(done.success()).isFalse();
        assertThat(done.error()).contains("taken");
        assertThat(broker.view().depth("out", null).pending()).isEqualTo(1);
        assertThat(broker.view().depth("in", null).reserved()).isEqualTo(1);
    }

    @Test
    void aDuplicateWithinTheTransactionFailsIt() {
        TransactionDone done = transaction(pushOf(item("out").tx("t")), pushOf(item("out").tx("t")));

        assertThat(done.success()).isFalse();
        assertThat(broker.view().hasQueue("out")).isFalse();
    }

    @Test
    void aBadAckFailsTheTransactionAndNothingApplies() {
        broker.push("in", "job");
        Delivery job = broker.pop("in").messages().get(0);

        TransactionDone done = transaction(pushOf(item("out")), new TxAck(ackOf(job).lease("stale").build()));

        assertThat(done.success()).isFalse();
        assertThat(done.error()).contains("Invalid or expired lease");
        assertThat(broker.view().hasQueue("out")).isFalse();
        assertThat(broker.view().depth("in", null).reserved()).isEqualTo(1);
    }

    @Test
    void anAckOfAnUnknownMessageFailsTheTransaction() {
        broker.push("in", "job");
        Delivery job = broker.pop("in").messages().get(0);

        TransactionDone done = transaction(new TxAck(ackOf(job).transactionId("nope").build()));

        assertThat(done.success()).isFalse();
        assertThat(done.error()).contains("Message not found");
    }

    @Test
    void aMissingRequiredLeaseFailsTheTransaction() {
        TransactionDone done = transaction(List.of("gone"), pushOf(item("out")));

        assertThat(done.success()).isFalse();
        assertThat(broker.view().hasQueue("out")).isFalse();
    }

    @Test
    void aFailedAckInsideATransactionGoesStraightToFailedJobs() {
        broker.push("in", "job");
        Delivery job = broker.pop("in").messages().get(0);

        TransactionDone done = transaction(new TxAck(ackOf(job).status(AckStatus.FAILED).error("nope").build()));

        assertThat(done.success()).isTrue();
        assertThat(done.results().get(0).dlq()).isTrue();
        assertThat(broker.view().failedJobs().size()).isEqualTo(1);
        assertThat(broker.view().failedJobs().list(null, null, 0, 0, 10, null).items().get(0).error())
                .isEqualTo("nope");
        assertThat(broker.pop("in").messages()).isEmpty();
    }

    @Test
    void aTransactionPastMaxSizeFailsWhole() {
        broker.configure("out", io.regina.testing.Options.options().maxSize(1));

        TransactionDone done = transaction(pushOf(item("out"), item("out")));

        assertThat(done.success()).isFalse();
        assertThat(broker.view().depth("out", null).pending()).isZero();
    }
}
