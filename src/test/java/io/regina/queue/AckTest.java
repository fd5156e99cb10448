package io.regina.queue;

import io.regina.queue.Result.AckOutcome;
import io.regina.queue.Result.Delivery;
import io.regina.queue.Result.Popped;
import io.regina.testing.Broker;
import org.junit.jupiter.api.Test;

import java.util.List;

import static io.regina.testing.Broker.ackOf;
import static io.regina.testing.Broker.data;
import static io.regina.testing.Broker.item;
import static io.regina.testing.Options.options;
import static org.assertj.core.api.Assertions.assertThat;

class AckTest {

    private final Broker broker = new Broker();

    private List<FailedJob> failedJobs() {
        return broker.view().failedJobs().list(null, null, 0, 0, 100, null).items();
    }

    @Test
    void completedMovesTheCursorAndReleasesTheLeaseWhenAllAreAcked() {
        broker.push("q", "a", "b", "c");
        Popped popped = broker.pop("q", 2);

        AckOutcome first = broker.ack(popped.messages().get(0));
        assertThat(first.success()).isTrue();
        assertThat(first.leaseReleased()).isFalse();
        assertThat(first.queue()).isEqualTo("q");
        assertThat(first.partition()).isEqualTo("Default");
        assertThat(broker.pop("q").messages()).as("the lease still holds the partition").isEmpty();

        AckOutcome second = broker.ack(popped.messages().get(1));
        assertThat(second.leaseReleased()).isTrue();
        assertThat(broker.view().leaseCount()).isZero();
        assertThat(data(broker.pop("q"))).containsExactly("c");
    }

    @Test
    void anAckOfAConsumedMessageSucceedsWithoutEffectWhileItIsStored() {
        broker.configure("q", options().completedRetentionSeconds(60).retentionEnabled(false));
        broker.push("q", "a");
        Delivery delivery = broker.pop("q").messages().get(0);
        broker.ack(ackOf(delivery).withoutLease());

        AckOutcome again = broker.ack(ackOf(delivery).withoutLease());

        assertThat(again.success()).isTrue();
        assertThat(again.leaseReleased()).isFalse();
    }

    @Test
    void failedWithinRetryLimitRedeliversTheWholeBatchAndCountsOnce() {
        broker.configure("q", options().retryLimit(3));
        broker.push("q", "a", "b", "c");
        Popped popped = broker.pop("q", 2);

        List<AckOutcome> outcomes = broker.ackAll(popped, AckStatus.FAILED);

        assertThat(outcomes).allSatisfy(o -> {
            assertThat(o.success()).isTrue();
            assertThat(o.dlq()).isFalse();
        });
        assertThat(outcomes.get(0).leaseReleased()).isTrue();
        assertThat(batchRetries()).isEqualTo(1);
        Popped again = broker.pop("q", 2);
        assertThat(data(again)).containsExactly("a", "b");
        assertThat(again.messages()).extracting(Delivery::attempts).containsExactly(2, 2);
    }

    @Test
    void failedBatchAckedWithoutLeaseIdsCountsOnce() {
        broker.push("q", "a", "b");
        Popped popped = broker.pop("q", 2);

        broker.ack(ackOf(popped.messages().get(0)).status(AckStatus.FAILED).withoutLease(),
                ackOf(popped.messages().get(1)).status(AckStatus.FAILED).withoutLease());

        assertThat(batchRetries()).isEqualTo(1);
    }

    @Test
    void anAckOfAConsumedAndRemovedMessageIsNotFound() {
        broker.push("q", "a");
        Delivery delivery = broker.pop("q").messages().get(0);
        broker.ack(delivery);

        AckOutcome again = broker.ack(ackOf(delivery).withoutLease());

        assertThat(again.success()).isFalse();
        assertThat(again.error()).isEqualTo("Message not found");
    }

    @Test
    void failedAcksOnEveryPartitionOfAMultiPartitionLeaseRedeliverEachBatch() {
        broker.push(item("q").partition("p1").payload("a"), item("q").partition("p2").payload("b"));
        Popped popped = broker.pop(Broker.from("q").partitions(2).batch(2));
        assertThat(popped.partitionsClaimed()).isEqualTo(2);

        List<AckOutcome> outcomes = broker.ackAll(popped, AckStatus.FAILED);

        assertThat(outcomes).extracting(AckOutcome::success).containsExactly(true, true);
        assertThat(broker.view().leaseCount()).isZero();
        Popped again = broker.pop(Broker.from("q").partitions(2).batch(2));
        assertThat(data(again)).containsExactlyInAnyOrder("a", "b");
        assertThat(again.messages()).extracting(Delivery::attempts).containsExactly(2, 2);
        assertThat(broker.view().partitions("q", 0, 10)).allSatisfy(p ->
                assertThat(p.groups().get(0).batchRetries()).isEqualTo(1));
    }

    @Test
    void aCompletedAckAfterItsBatchFailedInTheSameCallStillCounts() {
        broker.push("q", "a", "b", "c");
        Popped popped = broker.pop("q", 2);

        List<AckOutcome> outcomes = broker.ack(ackOf(popped.messages().get(0)).status(AckStatus.FAILED),
                ackOf(popped.messages().get(1)));

        assertThat(outcomes).extracting(AckOutcome::success).containsExactly(true, true);
        assertThat(data(broker.pop("q", 5))).containsExactly("a", "c");
    }

    @Test
    void failedPastRetryLimitBecomesAFailedJobAndTheCursorMovesPast() {
        broker.configure("q", options().retryLimit(1));
        broker.push(item("q").payload("a").tx("ta"), item("q").payload("b"));

        Delivery first = broker.pop("q").messages().get(0);
        assertThat(broker.ack(first, AckStatus.FAILED).dlq()).isFalse();
        Delivery second = broker.pop("q").messages().get(0);
        assertThat(second.data()).isEqualTo("a");
        AckOutcome last = broker.ack(ackOf(second).status(AckStatus.FAILED).error("boom"));

        assertThat(last.dlq()).isTrue();
        assertThat(last.leaseReleased()).isTrue();
        assertThat(failedJobs()).singleElement().satisfies(row -> {
            assertThat(row.transactionId()).isEqualTo("ta");
            assertThat(row.error()).isEqualTo("boom");
            assertThat(row.attempts()).isEqualTo(2);
            assertThat(row.queue()).isEqualTo("q");
            assertThat(row.partition()).isEqualTo("Default");
            assertThat(row.consumerGroup()).isEqualTo("__QUEUE_MODE__");
            assertThat(row.data()).isEqualTo("a");
            assertThat(row.failedAt()).isEqualTo(broker.now());
            assertThat(row.retryOf()).isNull();
        });
        assertThat(batchRetries()).as("the counter resets with the released lease").isZero();
        assertThat(data(broker.pop("q"))).containsExactly("b");
    }

    @Test
    void failedPastRetryLimitWithoutAnErrorSaysRetriesExhausted() {
        broker.configure("q", options().retryLimit(0));
        broker.push("q", "a");

        broker.ack(broker.pop("q").messages().get(0), AckStatus.FAILED);

        assertThat(failedJobs()).singleElement().extracting(FailedJob::error).isEqualTo("Retries exhausted");
    }

    @Test
    void dlqGoesStraightToFailedJobs() {
        broker.push("q", "a", "b");

        AckOutcome outcome = broker.ack(ackOf(broker.pop("q").messages().get(0)).status(AckStatus.DLQ).error("bad"));

        assertThat(outcome.dlq()).isTrue();
        assertThat(failedJobs()).singleElement().extracting(FailedJob::error).isEqualTo("bad");
        assertThat(data(broker.pop("q"))).containsExactly("b");
    }

    @Test
    void retryHandsBackWithoutCountingTheAttemptOrTheCounter() {
        broker.push("q", "a");
        Delivery first = broker.pop("q").messages().get(0);

        AckOutcome outcome = broker.ack(first, AckStatus.RETRY);

        assertThat(outcome.leaseReleased()).isTrue();
        assertThat(batchRetries()).isZero();
        Delivery again = broker.pop("q").messages().get(0);
        assertThat(again.id()).isEqualTo(first.id());
        assertThat(again.attempts()).isEqualTo(1);
    }

    @Test
    void retryOfAWholeBatchInOneCallHandsBackEveryMessage() {
        broker.push("q", "a", "b");
        Popped popped = broker.pop("q", 2);

        List<AckOutcome> outcomes = broker.ackAll(popped, AckStatus.RETRY);

        assertThat(outcomes).extracting(AckOutcome::success).containsExactly(true, true);
        Popped again = broker.pop("q", 2);
        assertThat(data(again)).containsExactly("a", "b");
        assertThat(again.messages()).extracting(Delivery::attempts).containsExactly(1, 1);
    }

    @Test
    void releaseWithADelayReentersAtTheTailAfterTheDelayWithTheAttemptCounted() {
        broker.push("q", "a", "b");
        Delivery a = broker.pop("q").messages().get(0);

        AckOutcome outcome = broker.ack(ackOf(a).status(AckStatus.RELEASE).delayMs(5_000));

        assertThat(outcome.success()).isTrue();
        assertThat(outcome.leaseReleased()).isTrue();
        assertThat(broker.view().depth("q", null).delayed()).isEqualTo(1);
        Popped b = broker.pop("q", 5);
        assertThat(data(b)).containsExactly("b");
        broker.ack(b.messages().get(0));
        broker.advance(4_999);
        assertThat(broker.pop("q").messages()).isEmpty();
        broker.advance(1);
        Delivery again = broker.pop("q").messages().get(0);
        assertThat(again.id()).isEqualTo(a.id());
        assertThat(again.data()).isEqualTo("a");
        assertThat(again.attempts()).isEqualTo(2);
    }

    @Test
    void releaseWithoutADelayGoesBehindTheWaitingMessages() {
        broker.push("q", "a", "b");
        Delivery a = broker.pop("q").messages().get(0);

        broker.ack(ackOf(a).status(AckStatus.RELEASE));

        Popped next = broker.pop("q", 5);
        assertThat(data(next)).containsExactly("b", "a");
        assertThat(next.messages()).extracting(Delivery::attempts).containsExactly(1, 2);
    }

    @Test
    void failedWithRetryAfterIsABrokerSideBackoff() {
        broker.push("q", "a");
        Delivery a = broker.pop("q").messages().get(0);

        AckOutcome outcome = broker.ack(ackOf(a).status(AckStatus.FAILED).error("later").delayMs(2_000));

        assertThat(outcome.dlq()).isFalse();
        assertThat(failedJobs()).isEmpty();
        assertThat(broker.pop("q").messages()).isEmpty();
        broker.advance(2_000);
        assertThat(broker.pop("q").messages()).singleElement().satisfies(d -> {
            assertThat(d.id()).isEqualTo(a.id());
            assertThat(d.attempts()).isEqualTo(2);
        });
    }

    @Test
    void anAckWithAWrongLeaseIsRefused() {
        broker.push("q", "a");
        Delivery a = broker.pop("q").messages().get(0);

        AckOutcome outcome = broker.ack(ackOf(a).lease("not-the-lease"));

        assertThat(outcome.success()).isFalse();
        assertThat(outcome.error()).isEqualTo("Invalid or expired lease");
        assertThat(broker.pop("q").messages()).as("still leased").isEmpty();
    }

    @Test
    void anAckUnderAnExpiredLeaseIsRefused() {
        broker.configure("q", options().leaseTime(10));
        broker.push("q", "a");
        Delivery a = broker.pop("q").messages().get(0);
        broker.advanceSeconds(10);

        AckOutcome outcome = broker.ack(a);

        assertThat(outcome.success()).isFalse();
        assertThat(outcome.error()).isEqualTo("Invalid or expired lease");
    }

    @Test
    void anAckOfAnUnknownMessageOrPartitionIsNotFound() {
        broker.push("q", "a");
        Delivery a = broker.pop("q").messages().get(0);

        AckOutcome unknownMessage = broker.ack(ackOf(a).transactionId("nope"));
        AckOutcome unknownPartition = broker.ack(ackOf(a).partitionId("00000000-0000-0000-0000-000000000000"));

        assertThat(unknownMessage.success()).isFalse();
        assertThat(unknownMessage.error()).isEqualTo("Message not found");
        assertThat(unknownPartition.error()).isEqualTo("Message not found");
    }

    @Test
    void acksOfOneCallAnswerInInputOrder() {
        broker.push("q", "a", "b");
        Popped popped = broker.pop("q", 2);

        List<AckOutcome> outcomes = broker.ack(ackOf(popped.messages().get(1)), ackOf(popped.messages().get(0)));

        assertThat(outcomes).extracting(AckOutcome::index).containsExactly(0, 1);
        assertThat(outcomes).extracting(AckOutcome::transactionId)
                .containsExactly(popped.messages().get(1).transactionId(), popped.messages().get(0).transactionId());
        assertThat(outcomes.get(1).leaseReleased()).isTrue();
    }

    private int batchRetries() {
        return broker.view().partitions("q", 0, 1).get(0).groups().get(0).batchRetries();
    }
}
